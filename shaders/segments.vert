#version 330 core
// One instanced quad per line segment (the arrows): endpoints in canvas units, width in pixels; a
// sweep repeats the segment along x, making the band that many close parallel arrows would show.
layout(location = 0) in vec2 corner;        // x along the segment 0..1, y across -0.5..0.5 (as 0..1)
layout(location = 1) in vec4 ends;          // x0, y0, x1, y1
layout(location = 2) in vec4 rgba;
layout(location = 3) in float width_px;
layout(location = 4) in float sweep;        // canvas units along x
uniform vec2 u_offset;
uniform vec2 u_scale;     // pixels per canvas unit, x and y
uniform vec2 u_viewport;
out vec4 v_color;
void main() {
  vec2 a = ends.xy * u_scale + u_offset;
  vec2 b = ends.zw * u_scale + u_offset;
  vec2 dir = b - a;
  float len = max(length(dir), 1e-4);
  vec2 normal = vec2(-dir.y, dir.x) / len;
  vec2 sweep_px = vec2(sweep * u_scale.x, 0.0);
  if (dot(normal, sweep_px) < 0.0) normal = -normal;  // across from the first segment's far side to the last's
  vec2 px = a + dir * corner.x + normal * (corner.y - 0.5) * width_px + sweep_px * corner.y;
  v_color = rgba;
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
