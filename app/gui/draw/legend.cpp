// The diagram's legend: its entries, their wrapping, and their SVG form.
#include "gui/draw/legend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/values.hpp"
#include "gui/model/canvas_fit.hpp"
#include "gui/draw/gl_diagram.hpp"
#include "svg.hpp"

namespace sv::gui {

namespace {

// Whether any row of the diagram, at any step, has a cell for which `pred(step, snapshot, index)` holds.
template <class Pred>
bool any_row_cell(const TraceView& tv, Pred pred) {
  const Trace& t = tv.trace;
  if (tv.row_buffer.size() != t.steps.size()) return false;
  for (std::size_t k = 0; k < t.snapshots.size() && k < tv.row_buffer.size(); ++k) {
    const BufferSnapshot& snap = t.snapshots[k][tv.row_buffer[k]];
    for (std::size_t i = 0; i < snap.values.size(); ++i)
      if (pred(k, snap, i)) return true;
  }
  return false;
}

}  // namespace

std::vector<LegendItem> legend_items(const TraceView& tv, const TraceView* race_free, const Palette& pal) {
  const Trace& t = tv.trace;
  bool role[3] = {false, false, false};
  for (const Edge& e : tv.edges) role[static_cast<int>(e.role)] = true;
  const bool active = std::any_of(t.events.begin(), t.events.end(),
                                  [](const Event& e) { return e.kind == EventKind::Write && e.a.kind == Origin::OpResult; });
  const bool race = std::any_of(tv.hazards.begin(), tv.hazards.end(), [](const Hazard& h) { return h.kind == HazardKind::RAW; });
  // Wrong: an output that differs from the reference, or a cell that differs from the race-free run's
  // at the same step (build_diagram's two rules).
  bool wrong = tv.wrong_outputs > 0;
  if (!wrong && race_free && race_free->row_buffer.size() == race_free->trace.snapshots.size())
    wrong = any_row_cell(tv, [&](std::size_t k, const BufferSnapshot& snap, std::size_t i) {
      if (k >= race_free->trace.snapshots.size()) return false;
      const BufferSnapshot& twin = race_free->trace.snapshots[k][race_free->row_buffer[k]];
      return twin.values.size() == snap.values.size() && twin.defined.size() == snap.defined.size() && snap.defined[i] &&
             twin.defined[i] && snap.values[i] != twin.values[i];
    });
  const bool invalid = t.meta.type == ValueType::Interval && any_row_cell(tv, [](std::size_t, const BufferSnapshot& s, std::size_t i) {
                         return s.defined[i] && s.values[i].as<Interval>().is_invalid();
                       });
  const bool undefined = any_row_cell(tv, [](std::size_t, const BufferSnapshot& s, std::size_t i) { return !s.defined[i]; });
  const bool segmented = std::any_of(t.meta.flags.begin(), t.meta.flags.end(), [](std::uint8_t f) { return f != 0; });

  std::vector<LegendItem> items;
  const auto add = [&](bool shown, LegendMark m, std::uint32_t rgba, const char* text) {
    if (shown) items.push_back({m, rgba, text});
  };
  add(role[static_cast<int>(EdgeRole::Left)], LegendMark::Left, pal.edge_left, "left operand");
  add(role[static_cast<int>(EdgeRole::Right)], LegendMark::Right, pal.edge_right, "right operand");
  add(role[static_cast<int>(EdgeRole::Copy)], LegendMark::Copy, pal.edge_copy, "copy");
  add(active, LegendMark::Active, pal.cell_active, "written this step");
  add(race, LegendMark::Race, pal.cell_hazard, "race: read after overwrite");
  add(wrong, LegendMark::Wrong, pal.wrong, "wrong value");
  add(invalid, LegendMark::Invalid, pal.cell_invalid, "invalid interval");
  add(undefined, LegendMark::Undefined, pal.cell_undefined, "not written yet");
  add(segmented, LegendMark::SegmentHead, pal.edge_right, "segment starts");
  return items;
}

std::vector<LegendItem> heat_legend_items(const Diagram& d) {
  const auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return abbreviate_value(buf);
  };
  std::vector<LegendItem> items{{LegendMark::Caption, 0, d.heat_of_lengths ? "range length:" : "value:"}};
  constexpr int kSteps = 5;
  for (int k = 0; k < kSteps; ++k) {
    float rgba[4];
    heat_color((static_cast<float>(k) + 0.5f) / kSteps, rgba);
    std::uint32_t packed = 0;
    for (int i = 0; i < 4; ++i) packed |= static_cast<std::uint32_t>(std::lround(rgba[i] * 255)) << (24 - 8 * i);
    const double span = d.heat_hi - d.heat_lo;
    items.push_back({LegendMark::Heat, packed, number(d.heat_lo + span * k / kSteps) + ".." + number(d.heat_lo + span * (k + 1) / kSteps)});
  }
  return items;
}

const char* legend_mark_name(LegendMark m) {
  switch (m) {
    case LegendMark::Left: return "left";
    case LegendMark::Right: return "right";
    case LegendMark::Copy: return "copy";
    case LegendMark::Active: return "active";
    case LegendMark::Race: return "race";
    case LegendMark::Wrong: return "wrong";
    case LegendMark::Invalid: return "invalid";
    case LegendMark::Undefined: return "undefined";
    case LegendMark::SegmentHead: return "segment-head";
    case LegendMark::Heat: return "heat";
    case LegendMark::Caption: return "caption";
  }
  return "";
}

LegendLayout layout_legend(const std::vector<LegendItem>& items, float width, float px,
                           const std::function<float(const std::string&)>& text_w) {
  LegendLayout out;
  if (items.empty()) return out;
  const float line = kLegendLineEm * px, gap = 0.35f * px, spacing = 1.1f * px;
  float x = 0, y = 0;
  for (const LegendItem& item : items) {
    const float swatch = item.mark == LegendMark::Caption ? 0 : kLegendSwatchEm * px;
    const float w = swatch + (swatch > 0 ? gap : 0) + text_w(item.text);
    if (x > 0 && x + w > width) x = 0, y += line;
    out.items.push_back({item, x, y, swatch, x + swatch + (swatch > 0 ? gap : 0)});
    x += w + (item.mark == LegendMark::Caption ? gap : spacing);
  }
  out.height = y + line;
  return out;
}

std::uint32_t hatch_color(const Palette& pal) {
  std::uint32_t out = 0xFF;
  for (int shift = 8; shift < 32; shift += 8) {
    const float fill = static_cast<float>((pal.cell_hazard >> shift) & 0xFF), bg = static_cast<float>((pal.background >> shift) & 0xFF);
    out |= static_cast<std::uint32_t>(std::lround(fill + (bg - fill) * kHatchMix)) << shift;
  }
  return out;
}

float wrong_corner_px(float cell_w, float cell_h) { return std::min(kWrongCornerShare * cell_h, cell_w / 3); }

std::string svg_hatch_defs(const Palette& pal) {
  // Vertical stripes turned to run down to the right, spaced as the window's (which are measured
  // along x: across the stripes that is 1/sqrt 2 of it).
  const float across = 1 / std::sqrt(2.0f);
  std::ostringstream s;
  s << "<pattern id=\"race-hatch\" patternUnits=\"userSpaceOnUse\" width=\"" << kHatchPeriod * across << "\" height=\""
    << kHatchPeriod << "\" patternTransform=\"rotate(-45)\"><rect width=\"" << kHatchWidth * across << "\" height=\"" << kHatchPeriod
    << "\" fill=\"" << svg::color(hatch_color(pal)) << "\"/></pattern>";
  return s.str();
}

std::string svg_race_hatch(float x, float y, float w, float h) {
  std::ostringstream s;
  s << "<rect class=\"hatch\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h << "\" fill=\"url(#race-hatch)\"/>";
  return s.str();
}

std::string svg_wrong_mark(float x, float y, float w, float h, const Palette& pal) {
  std::ostringstream s;
  const float k = wrong_corner_px(w, h);
  s << "<rect class=\"wrong\" x=\"" << x + 2 << "\" y=\"" << y + 2 << "\" width=\"" << w - 4 << "\" height=\"" << h - 4
    << "\" fill=\"none\" stroke=\"" << svg::color(pal.wrong) << "\" stroke-width=\"3\"/>"
    << "<polygon class=\"wrong-corner\" points=\"" << x + w - k << "," << y << " " << x + w << "," << y << " " << x + w << "," << y + k
    << "\" fill=\"" << svg::color(pal.wrong) << "\"/>";
  return s.str();
}

std::string legend_svg(const std::vector<LegendItem>& items, const Palette& pal, float x, float y, float width, float font_px,
                       float& height) {
  // DejaVu Sans averages about 0.6 em a character: wide enough that no entry runs into the next.
  const LegendLayout laid = layout_legend(items, width, font_px, [&](const std::string& t) {
    return 0.6f * font_px * static_cast<float>(t.size());
  });
  height = laid.height;
  std::ostringstream s;
  s << "<g class=\"legend\" transform=\"translate(" << x << "," << y << ")\" font-size=\"" << font_px << "\">\n";
  for (const PlacedLegendItem& p : laid.items) {
    const LegendItem& it = p.item;
    const float top = p.y, mid = p.y + 0.5f * font_px, sw = p.swatch_w, sh = font_px;
    s << "<g class=\"entry " << legend_mark_name(it.mark) << "\">";
    switch (it.mark) {
      case LegendMark::Left:
      case LegendMark::Right:
      case LegendMark::Copy:
        s << "<line x1=\"" << p.x << "\" y1=\"" << mid << "\" x2=\"" << p.x + sw << "\" y2=\"" << mid << "\" stroke=\""
          << svg::color(it.rgba) << "\" stroke-width=\"2\" marker-end=\"url(#arrow-" << svg::color(it.rgba).substr(1) << ")\"/>";
        break;
      case LegendMark::SegmentHead:
        s << "<line x1=\"" << p.x + sw / 2 << "\" y1=\"" << top << "\" x2=\"" << p.x + sw / 2 << "\" y2=\"" << top + sh
          << "\" stroke=\"" << svg::color(it.rgba) << "\" stroke-width=\"4\"/>";
        break;
      case LegendMark::Caption: break;
      case LegendMark::Wrong:
        s << "<rect x=\"" << p.x << "\" y=\"" << top << "\" width=\"" << sw << "\" height=\"" << sh << "\" fill=\"" << svg::color(pal.cell)
          << "\" stroke=\"" << svg::color(pal.border) << "\"/>" << svg_wrong_mark(p.x, top, sw, sh, pal);
        break;
      default:
        s << "<rect x=\"" << p.x << "\" y=\"" << top << "\" width=\"" << sw << "\" height=\"" << sh << "\" fill=\"" << svg::color(it.rgba)
          << "\" stroke=\"" << svg::color(pal.border) << "\"/>";
        if (it.mark == LegendMark::Race) s << svg_race_hatch(p.x, top, sw, sh);
    }
    s << "<text x=\"" << p.text_x << "\" y=\"" << top + 0.85f * font_px << "\" fill=\"" << svg::color(pal.text) << "\">"
      << svg::escape(it.text) << "</text></g>\n";
  }
  s << "</g>\n";
  return s.str();
}

}  // namespace sv::gui
