// The kernel source pane as drawn under Xvfb: the CUDA form by default with the step's lines lit,
// the emulator form after C, lit lines scrolled into view, nothing drawn past the pane's edge. The
// window's --report-source says which lines it lit and where; the screenshot shows the highlight
// on exactly those rows.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "run_command.hpp"

#define STBI_ONLY_PNG
#include <stb_image.h>

namespace fs = std::filesystem;

namespace {

struct Lit {
  int line = 0;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::string text;
};

struct Pane {
  std::string file;
  std::vector<Lit> lit;
  float visible_y0 = 0, visible_y1 = 0, right = 0, widest = 0;
  int top_line = 0;  // the first line showing, and where its top is
  float top_y0 = 0;
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;

  std::array<int, 3> at(int x, int y) const {
    const unsigned char* p = &rgb[(static_cast<std::size_t>(y) * w + x) * 3];
    return {p[0], p[1], p[2]};
  }
  int count_texts(const std::string& what) const {
    int n = 0;
    for (const Lit& l : lit) n += l.text.find(what) != std::string::npos;
    return n;
  }
};

// Opens the window on `args` for a few frames at `size` and reads its report and screenshot.
Pane draw(const std::string& args, const std::string& size = "1280x720") {
  sv_test::TempDir dir;
  const sv_test::Run r = sv_test::run_shell(
      "XDG_CONFIG_HOME=. LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s '-screen 0 1920x1080x24' " + sv_test::scanviz_exe() +
          " gui --frames 6 --size " + size + " --theme light --report-source --screenshot pane.png " + args,
      dir.path);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  Pane p;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("source pane: kernels/", 0) == 0) p.file = line.substr(21);
    if (line.rfind("lit ", 0) == 0) {
      Lit l;
      std::istringstream f(line.substr(4));
      f >> l.line >> l.x0 >> l.y0 >> l.x1 >> l.y1;
      const std::size_t colon = line.find(": ");
      REQUIRE(colon != std::string::npos);
      l.text = line.substr(colon + 2);
      p.lit.push_back(l);
    }
    if (line.rfind("visible ", 0) == 0)
      REQUIRE(std::sscanf(line.c_str(), "visible %f %f, right edge %f, widest line ends at %f", &p.visible_y0, &p.visible_y1,
                          &p.right, &p.widest) == 4);
    if (line.rfind("top line ", 0) == 0) REQUIRE(std::sscanf(line.c_str(), "top line %d at %f", &p.top_line, &p.top_y0) == 2);
  }
  int channels = 0;
  unsigned char* data = stbi_load((dir.path / "pane.png").c_str(), &p.w, &p.h, &channels, 3);
  REQUIRE(data != nullptr);
  p.rgb.assign(data, data + static_cast<std::size_t>(p.w) * p.h * 3);
  stbi_image_free(data);
  return p;
}

// The highlight (255, 212, 59 at alpha 110/255) over `bg`.
std::array<int, 3> lit_over(std::array<int, 3> bg) {
  const std::array<int, 3> hi = {255, 212, 59};
  std::array<int, 3> c{};
  for (int i = 0; i < 3; ++i) c[i] = static_cast<int>(std::lround(hi[i] * 110 / 255.0 + bg[i] * (1 - 110 / 255.0)));
  return c;
}

bool near(std::array<int, 3> a, std::array<int, 3> b) {
  for (int i = 0; i < 3; ++i)
    if (std::abs(a[i] - b[i]) > 6) return false;
  return true;
}

// Rows of the pane (between the code's left end and its right edge) whose pixels are mostly the
// highlight colour.
std::vector<int> highlighted_rows(const Pane& p, float x0) {
  // The pane's background: its right edge on a row no lit line covers; the highlight is over it.
  int bg_y = static_cast<int>(p.visible_y1) - 2;
  for (int y = static_cast<int>(p.visible_y0) + 2; y < static_cast<int>(p.visible_y1) - 2; ++y) {
    bool lit = false;
    for (const Lit& l : p.lit) lit |= y >= l.y0 - 1 && y < l.y1 + 1;
    if (!lit) {
      bg_y = y;
      break;
    }
  }
  const std::array<int, 3> hi = lit_over(p.at(static_cast<int>(p.right) - 2, bg_y));
  std::vector<int> rows;
  for (int y = static_cast<int>(p.visible_y0); y < static_cast<int>(p.visible_y1); ++y) {
    int n = 0, all = 0;
    for (int x = static_cast<int>(x0); x < static_cast<int>(p.right); ++x, ++all) n += near(p.at(x, y), hi);
    if (n * 2 > all) rows.push_back(y);
  }
  return rows;
}

// Every highlighted row lies in a lit line's rectangle, and every lit line's rectangle that is in
// view is highlighted from top to bottom.
void check_highlight_on_lit_lines(const Pane& p) {
  REQUIRE_FALSE(p.lit.empty());
  const std::vector<int> rows = highlighted_rows(p, p.lit[0].x0);
  CHECK(rows.size() > 10);
  for (int y : rows) {
    bool inside = false;
    for (const Lit& l : p.lit) inside |= y >= l.y0 && y < l.y1;
    CHECK_MESSAGE(inside, "row " << y << " is highlighted but no lit line is there");
  }
  for (const Lit& l : p.lit) {
    if (l.y0 < p.visible_y0 || l.y1 > p.visible_y1) continue;
    int covered = 0;
    for (int y : rows) covered += y >= l.y0 && y < l.y1;
    CHECK_MESSAGE(covered * 10 >= (l.y1 - l.y0) * 7, "line " << l.line << " (" << l.text << ") is not highlighted");
  }
}

}  // namespace

TEST_CASE("source pane: the CUDA form by default, Kogge-Stone's stride lighting the slides' lines, highlighted where they are drawn") {
  const Pane p = draw("--algo kogge-stone --n 8 --step 2");
  CHECK(p.file == "block/cuda/kogge_stone.cu");
  CHECK(p.lit.size() == 5);
  CHECK(p.count_texts("for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2) {") == 1);
  CHECK(p.count_texts("v = buffer_s[threadIdx.x - stride];") == 1);
  CHECK(p.count_texts("__syncthreads();") == 2);
  CHECK(p.count_texts("buffer_s[threadIdx.x] += v;") == 1);
  for (const Lit& l : p.lit) {  // in view, not cut off
    CHECK(l.y0 >= p.visible_y0);
    CHECK(l.y1 <= p.visible_y1);
  }
  CHECK(p.widest <= p.right);  // long lines wrap at the pane's edge
  check_highlight_on_lit_lines(p);
}

TEST_CASE("source pane: C shows the emulator form, the same step's lines lit there") {
  const Pane p = draw("--algo kogge-stone --n 8 --step 2 --keys c");
  CHECK(p.file == "block/kogge_stone.hpp");
  CHECK(p.count_texts("x.step(Phase::Stride, stride);") == 1);
  CHECK(p.count_texts("v = buffer_s(t - stride);") == 1);
  CHECK(p.count_texts("x.sync();") == 2);
  CHECK(p.count_texts("threadIdx") == 0);
  CHECK(p.widest <= p.right);
  check_highlight_on_lit_lines(p);
}

TEST_CASE("source pane: a lit line far down the file is scrolled into view, in large text, wrapped") {
  // Blelloch's down-sweep at n = 16 (step 9) lights lines 23 to 32 of its 36; at font scale 1.5 the
  // pane holds about a dozen of its wrapped lines.
  const Pane p = draw("--algo blelloch --n 16 --step 9 --font-scale 1.5");
  CHECK(p.file == "block/cuda/blelloch.cu");
  REQUIRE_FALSE(p.lit.empty());
  CHECK(p.lit.front().text.find("for(unsigned int stride = SECTION_SIZE/2;") != std::string::npos);
  CHECK(p.lit.front().y0 >= p.visible_y0);
  CHECK(p.lit.front().y1 <= p.visible_y1);
  CHECK(p.lit.front().y1 - p.lit.front().y0 > 40);  // the loop's header wraps onto two lines or more
  CHECK(p.widest <= p.right);
  check_highlight_on_lit_lines(p);
}

TEST_CASE("source pane: scrolled to the step's lines, its first line shows whole, at 1920x1080 and 1280x720") {
  // The default lesson's load step lights lines 12 and 13, which the pane scrolls to: a scroll that
  // stopped part way through a wrapped line cut the pane's first line in half at 1920x1080.
  for (const char* size : {"1920x1080", "1280x720"}) {
    CAPTURE(size);
    const Pane p = draw("", size);
    REQUIRE_FALSE(p.lit.empty());
    CHECK(p.lit.front().line == 12);
    CHECK(p.top_line > 1);  // scrolled
    CHECK(p.top_y0 >= p.visible_y0 - 0.5f);
    CHECK(p.lit.front().y1 <= p.visible_y1);
  }
}
