// The lesson's run (lesson_run.hpp).
#include "lesson_run.hpp"

#include "algorithms.hpp"
#include "core/float_inputs.hpp"

namespace sv {

RunRequest default_lesson_request() {
  RunRequest r;
  r.algorithm = std::string(kDefaultBlockAlgorithm);
  r.n = 8;
  r.op = OpKind::Interval;
  r.input = "slides";
  r.predicate = "x % 2 == 0";
  r.executor = "emulator";
  return r;
}

void seeded_input_past_the_slides(RunRequest& r, bool input_given) {
  if (!input_given && r.n.value_or(8) > 8) r.input.clear();
}

void float_input_defaults(RunRequest& r, bool op_given, bool type_given) {
  if (!is_float_input_name(r.input)) return;
  if (!op_given) r.op = OpKind::Sum;
  if (!type_given) r.type = ValueType::F32;
}

RunRequest lesson_run(RunRequest r) {
  const AlgorithmInfo* info = find_algorithm(r.algorithm);
  const bool gpu = r.executor == "gpu";
  if (info && info->warp_level && !r.warp) r.warp = 4;
  if (info && !info->warp_level) {
    if (!r.warp && info->racy) r.warp = 1;  // auto: the racy kernel's threads each on their own
    if (gpu || r.warp == kMaxWarpWidth) r.warp.reset();  // the GPU runs warps of 32
  }
  if (r.op == OpKind::Interval || r.type == ValueType::Interval) r.type.reset();  // the interval operator's own type
  if (!r.app.empty()) {  // the exclusive sum of counts (cli: --app)
    r.op.reset();
    if (r.type != ValueType::I64) r.type.reset();
    r.exclusive = false;
    r.flags.clear();
  }
  if (r.app != "compact") r.predicate.clear();
  if (!r.flags.empty()) r.exclusive = false;
  // Typed values say how many; the slides' and the float lesson's named inputs are made at n.
  if (r.input != "slides" && !r.input.empty() && !is_float_input_name(r.input)) r.n.reset();
  if (r.schedule == "in-order" || gpu) r.schedule.clear();
  // The lesson's warp (4, as Fig. 2 draws it) narrowed to a block smaller than it (n = 2), where a
  // command line's --warp 4 is refused: unset, the block's own width.
  if (info && info->warp_level && r.warp && r.n && *r.n > 0 && *r.warp > block_shape(*info, *r.n, r.block).capacity) r.warp.reset();
  r.executor = gpu ? "gpu" : "emulator";
  return r;
}

}  // namespace sv
