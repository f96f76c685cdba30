#version 330 core
// Fill with a one-pixel border; cells narrower than 3 px are drawn as a plain fill. A heat row's
// pixel takes its bin's colour and border as if the bin were a cell of its own. Marks that do not
// rest on colour alone (gui/draw/legend.hpp): a race cell's fill, or a heat bin's with a race, is hatched,
// stripes 8 px apart and 3 px wide in u_hatch; of a wrong cell's corner quad only the triangle in its
// top-right corner is drawn, in the border's colour, its legs half the cell's height and at most a
// third of its width.
uniform sampler2D u_heat;
uniform vec4 u_hatch;
in vec2 v_local_px;
in vec2 v_size_px;
in vec4 v_fill;
in vec4 v_border;
flat in int v_heat_row;
flat in float v_bin_px;
flat in int v_pattern;
out vec4 color;
void main() {
  vec2 local = v_local_px, size = v_size_px;
  vec4 fill = v_fill;
  bool hatched = (v_pattern & 1) != 0;
  if (v_heat_row >= 0) {
    float bin = floor(local.x / v_bin_px);
    fill = texelFetch(u_heat, ivec2(int(bin), v_heat_row), 0);
    hatched = fill.a < 0.999;  // a bin with a race (gl_diagram.cpp's kHeatHatchAlpha)
    fill.a = 1.0;
    local.x -= bin * v_bin_px;
    size.x = min(v_bin_px, v_size_px.x - bin * v_bin_px);
  }
  float edge = min(min(local.x, size.x - local.x), min(local.y, size.y - local.y));
  bool bordered = size.x >= 3.0 && edge < 1.0;
  if (hatched && mod(gl_FragCoord.x + gl_FragCoord.y, 8.0) < 3.0) fill = u_hatch;
  if ((v_pattern & 2) != 0) {
    if ((size.x - local.x) + local.y > min(0.5 * size.y, size.x / 3.0)) discard;
    color = v_border;
    return;
  }
  color = bordered ? v_border : fill;
}
