#version 330 core
// Fill with a one-pixel border; cells narrower than 3 px are drawn as a plain fill (the heatmap).
in vec2 v_local_px;
in vec2 v_size_px;
in vec4 v_fill;
in vec4 v_border;
out vec4 color;
void main() {
  float edge = min(min(v_local_px.x, v_size_px.x - v_local_px.x), min(v_local_px.y, v_size_px.y - v_local_px.y));
  bool bordered = v_size_px.x >= 3.0 && edge < 1.0;
  color = bordered ? v_border : v_fill;
}
