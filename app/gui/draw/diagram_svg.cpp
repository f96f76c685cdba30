// The diagram as SVG (gui/draw/diagram_svg.hpp).
#include "gui/draw/diagram_svg.hpp"

#include <cstdint>
#include <set>
#include <sstream>

#include "analysis/analysis.hpp"
#include "svg.hpp"

namespace sv::gui {

std::string diagram_svg(const Diagram& d, const Palette& pal, const std::string& title, const std::vector<LegendItem>* legend) {
  std::ostringstream s;
  const float title_h = 28, legend_font = 12;
  // The legend under the cells, as wide as the diagram.
  float legend_h = 0;
  const std::string legend_group =
      legend && !legend->empty() ? legend_svg(*legend, pal, d.layout.margin, title_h + d.height, d.width - 2 * d.layout.margin, legend_font, legend_h)
                                 : std::string();
  const float height = d.height + title_h + (legend_h > 0 ? legend_h + d.layout.margin : 0);
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << d.width << "\" height=\"" << height << "\" viewBox=\"0 0 " << d.width << " "
    << height << "\" font-family=\"DejaVu Sans, sans-serif\">\n";
  s << "<title>" << svg::escape(title) << "</title>\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"" << svg::color(pal.background) << "\"/>\n";
  s << "<text x=\"12\" y=\"20\" font-size=\"15\" fill=\"" << svg::color(pal.text) << "\">" << svg::escape(title) << "</text>\n";
  // One arrowhead marker per arrow colour (the diagram's and the legend's), filled with it (SVG 1.1:
  // no context-stroke, which older viewers and slide tools draw black); the race cells' hatch.
  std::set<std::uint32_t> colors;
  for (const DiagramEdge& e : d.edges) colors.insert(e.color);
  if (legend)
    for (const LegendItem& item : *legend)
      if (item.mark == LegendMark::Left || item.mark == LegendMark::Right || item.mark == LegendMark::Copy) colors.insert(item.rgba);
  s << "<defs>";
  for (std::uint32_t c : colors)
    s << "<marker id=\"arrow-" << svg::color(c).substr(1) << "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
      << "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"" << svg::color(c)
      << "\"/></marker>";
  s << svg_hatch_defs(pal) << "</defs>\n<g transform=\"translate(0," << title_h << ")\">\n";
  for (const DiagramRow& r : d.rows)
    s << "<text class=\"row-label\" x=\"12\" y=\"" << r.y + 19 << "\" font-size=\"12\" fill=\""
      << svg::color(pal.text_dim) << "\">" << svg::escape(r.label) << "</text>\n";
  for (const DiagramEdge& e : d.edges)
    s << "<line class=\"edge " << edge_role_name(e.role) << "\" x1=\"" << e.x0 << "\" y1=\"" << e.y0 << "\" x2=\""
      << e.x1 << "\" y2=\"" << e.y1 << "\" stroke=\"" << svg::color(e.color)
      << "\" stroke-width=\"2\" marker-end=\"url(#arrow-" << svg::color(e.color).substr(1) << ")\"/>\n";
  for (const DiagramCell& c : d.cells) {
    s << "<g class=\"cell" << (c.active ? " active" : "") << (c.hazard ? " hazard" : "") << (c.wrong ? " wrong" : "")
      << "\" data-row=\"" << c.row
      << "\" data-column=\"" << c.column << "\">";
    s << "<rect x=\"" << c.x << "\" y=\"" << c.y << "\" width=\"" << c.w << "\" height=\"" << c.h << "\" fill=\""
      << svg::color(c.fill) << "\" stroke=\"" << svg::color(pal.border) << "\"/>";
    if (c.hazard) s << svg_race_hatch(c.x, c.y, c.w, c.h);
    if (c.wrong) s << svg_wrong_mark(c.x, c.y, c.w, c.h, pal);  // outlined inside the cell, so that neighbours' outlines stay apart
    if (c.segment_head)  // a segmented scan restarts at this element
      s << "<line class=\"segment-head\" x1=\"" << c.x << "\" y1=\"" << c.y - 6 << "\" x2=\"" << c.x << "\" y2=\""
        << c.y + c.h + 6 << "\" stroke=\"" << svg::color(pal.edge_right) << "\" stroke-width=\"4\"/>";
    if (!c.label.empty())
      s << "<text x=\"" << c.x + c.w / 2 << "\" y=\"" << c.y + c.h / 2 + 4
        << "\" font-size=\"12\" text-anchor=\"middle\" fill=\"" << svg::color(pal.text) << "\">" << svg::escape(c.label)
        << "</text>";
    s << "</g>\n";
  }
  s << "</g>\n" << legend_group << "</svg>\n";
  return s.str();
}

}  // namespace sv::gui
