// What a kernel of your own refuses beside it, in the window: the page's kernel link and `scanviz gui
// --kernel` refuse the same fields from one list (window_kernel_refusal), each in its own words.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "gui/kernel_refusal.hpp"
#include "gui_test.hpp"
#include "web/kernel_address.hpp"
#include "web/kernel_link.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;

TEST_CASE("a kernel of your own refuses a built-in lesson's fields, in a link and on the command line alike") {
  const std::string kernel = std::string(SCANVIZ_SOURCE_DIR) + "/assets/kernels/pmpp_kogge_stone_double_buffer.cu";
  const std::string fragment = web::kernel_fragment("mine.cu", "#define BLOCK_DIM 8\n__global__ void k(float* a) {}\n").fragment;
  struct Case {
    std::function<void(GuiOptions&)> set;  // the field as a link sets it
    const char* link;                      // what the page says
    const char* flags;                     // the same field on the command line
    const char* line;                      // what the command line says
  };
  const Case cases[] = {
      {[](GuiOptions& o) { o.lesson.algorithm = "brent-kung"; }, "link: algo= with a kernel", "--algo brent-kung", "--kernel with --algo: choose one"},
      {[](GuiOptions& o) { o.lesson.flags = "random:0.25"; }, "link: scan= with a kernel", "--scan segmented", "--kernel with --scan: segmented scans"},
      {[](GuiOptions& o) { o.lesson.app = "allocate"; }, "link: scan= with a kernel", "--scan allocate", "--kernel with --scan: segmented scans"},
      {[](GuiOptions& o) { o.side_by_side = true; }, "link: side= with a kernel", "--side-by-side", "--kernel with --side-by-side: a kernel of your own runs alone"},
      {[](GuiOptions& o) { o.lesson.type = ValueType::F64; }, "link: type= with a kernel", "--type double", "--kernel with --type: a kernel of your own scans the type"},
      {[](GuiOptions& o) { o.lesson.executor = "gpu"; }, "link: executor=gpu with a kernel", "--executor gpu", "--kernel with --executor gpu: a kernel of your own runs on the CPU emulator only"},
      {[](GuiOptions& o) { o.lesson.op = OpKind::Max; }, "link: op=max with a kernel", "--op max", "--kernel with --op max: a kernel of your own scans with its +"},
      {[](GuiOptions& o) { o.lesson.amplify = 3; }, "link: amplify= with a kernel", "--amplify 3", "--kernel with --amplify: the race amplifier"},
      {[](GuiOptions& o) { o.trace_path = "t.json"; }, "link: trace= with a kernel", nullptr, nullptr},
      {[](GuiOptions& o) { o.lookback = "waiting"; }, "link: lookback= with a kernel", nullptr, nullptr},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.link));
    GuiOptions o;
    c.set(o);
    CHECK(web::apply_fragment(fragment, o).rfind(c.link, 0) == 0);
    CHECK(o.kernel_text.empty());  // refused: the kernel is not taken
    if (!c.flags) continue;
    std::string out;
    CHECK(run_under_xvfb("gui --kernel " + kernel + " " + c.flags + " --frames 1", &out) == 2);
    CHECK(out.find(c.line) != std::string::npos);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  }
  // The default lesson's fields, and those a kernel takes (n, the symbolic or + operator, exclusive,
  // a schedule), are no refusal: the kernel is taken.
  GuiOptions o;
  o.lesson.n = 16;
  o.lesson.op = OpKind::Sum;
  o.lesson.exclusive = true;
  o.lesson.schedule = "reverse";
  CHECK(web::apply_fragment(fragment, o).empty());
  CHECK(o.kernel_name == "mine.cu");
  CHECK(!o.kernel_text.empty());
  CHECK(!window_kernel_refusal(o));
}
