// The segmented scan's heads in the diagram (model, SVG, narration) and the applications window
// (stream compaction, allocation) as drawn in the window under Xvfb.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "analysis/application.hpp"
#include "emulator/record.hpp"
#include "gui/draw/diagram_svg.hpp"
#include "mirror/narration.hpp"
#include "gui/model/diagram_model.hpp"
#include "trace/trace_json.hpp"

#define STBI_ONLY_PNG
#include <stb_image.h>

using namespace sv;
namespace fs = std::filesystem;

namespace {

Trace segmented_sklansky() {
  BlockRunConfig c;
  c.algorithm = "sklansky";
  c.n = 8;
  c.op = OpKind::Interval;
  c.type = ValueType::Interval;
  c.flags = {1, 0, 0, 1, 0, 1, 0, 0};
  return record_block_scan(c);
}

Trace application(const std::string& kind, const std::string& predicate) {
  BlockRunConfig c;
  c.algorithm = "brent-kung";
  c.n = 7;
  c.exclusive = true;
  std::vector<Payload> values;
  for (std::int32_t v : {8, 6, 7, 5, 3, 0, 9}) values.push_back(Payload::of(v));
  c.application.kind = kind;
  if (kind == "compact") {
    c.input = compaction_flags(Predicate::parse(predicate), ValueType::I32, values);
    c.application.predicate = predicate;
    c.application.values = values;
  } else {
    c.input = values;
  }
  return record_block_scan(c);
}

// Pixels of the screenshot within 6 of `rgb` in every channel, above row `end_y`.
long count_pixels(const fs::path& png, unsigned r, unsigned g, unsigned b, int end_y = 1 << 30) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 3);
  REQUIRE(data != nullptr);
  long count = 0;
  for (long i = 0; i < static_cast<long>(w) * std::min(h, end_y); ++i)
    count += std::abs(data[3 * i] - static_cast<int>(r)) <= 6 && std::abs(data[3 * i + 1] - static_cast<int>(g)) <= 6 &&
             std::abs(data[3 * i + 2] - static_cast<int>(b)) <= 6;
  stbi_image_free(data);
  return count;
}

int screenshot(const fs::path& trace, const fs::path& png) {
  const fs::path config = fs::temp_directory_path() / ("scanviz-gui-seg-config-" + std::to_string(::getpid()));
  const std::string cmd = "XDG_CONFIG_HOME='" + config.string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' '" SCANVIZ_EXE
                          "' gui --trace '" + trace.string() + "' --frames 6 --theme light --size 1500x850 --screenshot '" +
                          png.string() + "' --report-layout '" + png.string() + ".json' >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The top of the diagram's legend strip in the screenshot (from its layout report).
int legend_top(const fs::path& png) {
  std::ifstream in(png.string() + ".json");
  return static_cast<int>(double(nlohmann::json::parse(in)["canvases"][0]["legend_area"]["y"]));
}

}  // namespace

TEST_CASE("diagram model: a segmented scan's heads are marked in every row, and the SVG draws them") {
  const TraceView tv = make_trace_view(segmented_sklansky());
  const gui::Diagram d = gui::build_diagram(tv, static_cast<int>(tv.trace.steps.size()) - 1, gui::palette_light());
  REQUIRE(!d.rows.empty());
  for (const gui::DiagramRow& row : d.rows) {
    std::vector<int> heads;
    for (std::size_t i = 0; i < row.cell_count; ++i)
      if (d.cells[row.first_cell + i].segment_head) heads.push_back(static_cast<int>(i));
    CHECK(heads == std::vector<int>{0, 3, 5});
  }
  const std::string svg = gui::diagram_svg(d, gui::palette_light(), "segmented");
  std::size_t lines = 0;
  for (std::size_t at = svg.find("segment-head"); at != std::string::npos; at = svg.find("segment-head", at + 1)) ++lines;
  CHECK(lines == 3 * d.rows.size());
  CHECK(narrate_step(tv, 1).find("segmented interval") != std::string::npos);
  CHECK(narrate_step(tv, 0).find("3 flags mark where a segment starts") != std::string::npos);
}

TEST_CASE("narration: compaction and allocation say what their scan is for") {
  const TraceView c = make_trace_view(application("compact", "x > 5"));
  CHECK(c.trace.steps.size() > 1);
  CHECK(narrate_step(c, 0).find("predicate x > 5") != std::string::npos);
  const TraceView a = make_trace_view(application("allocate", ""));
  CHECK(narrate_step(a, static_cast<int>(a.trace.steps.size()) - 1).find("offset") != std::string::npos);
}

TEST_CASE("applications window: kept elements drawn in the kept colour, none when nothing passes") {
  const fs::path dir = fs::temp_directory_path() / ("scanviz-gui-seg-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  save_trace(dir / "some.json", application("compact", "x > 5"));  // 8, 6, 7, 9: four kept
  save_trace(dir / "none.json", application("compact", "x > 100"));
  save_trace(dir / "alloc.json", application("allocate", ""));
  REQUIRE(screenshot(dir / "some.json", dir / "some.png") == 0);
  REQUIRE(screenshot(dir / "none.json", dir / "none.png") == 0);
  REQUIRE(screenshot(dir / "alloc.json", dir / "alloc.png") == 0);
  // The kept colour (178, 242, 187): four input, four predicate and four output cells.
  const long some = count_pixels(dir / "some.png", 178, 242, 187);
  CHECK(some > 12 * 200);
  // None above the diagram's legend (whose swatch for a written cell has the same green).
  CHECK(count_pixels(dir / "none.png", 178, 242, 187, legend_top(dir / "none.png")) == 0);
  CHECK(count_pixels(dir / "alloc.png", 178, 242, 187, legend_top(dir / "alloc.png")) == 0);
  fs::remove_all(dir);
}
