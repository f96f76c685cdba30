#version 330 core
// One instanced quad per diagram cell (canvas-space rectangle, fill, border), or per row of folded
// cells, whose bins' colours come from a row of the heat texture.
layout(location = 0) in vec2 corner;        // (0,0)..(1,1)
layout(location = 1) in vec4 rect;          // x, y, w, h in canvas units
layout(location = 2) in vec4 fill;
layout(location = 3) in vec4 border;
layout(location = 4) in float heat_row;     // >= 0: the heat texture's row with this quad's bins
layout(location = 5) in float bin_w;        // a bin's width in canvas units
layout(location = 6) in float pattern;      // bits: 1 the race hatch, 2 the wrong cell's corner quad
uniform vec2 u_offset;   // canvas -> pixels: pixel = canvas * u_scale + u_offset
uniform vec2 u_scale;     // pixels per canvas unit, x and y
uniform vec2 u_viewport; // pixels
out vec2 v_local_px;     // position inside the cell, pixels
out vec2 v_size_px;
out vec4 v_fill;
out vec4 v_border;
flat out int v_heat_row;
flat out float v_bin_px;
flat out int v_pattern;
void main() {
  vec2 canvas = rect.xy + corner * rect.zw;
  vec2 px = canvas * u_scale + u_offset;
  v_local_px = corner * rect.zw * u_scale;
  v_size_px = rect.zw * u_scale;
  v_fill = fill;
  v_border = border;
  v_heat_row = int(heat_row);
  v_bin_px = bin_w * u_scale.x;
  v_pattern = int(pattern);
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
