// A kernel of the user's own as a run request (own_run.hpp).
#include "entry/own_run.hpp"

#include <tuple>

#include "core/values.hpp"
#include "entry/record.hpp"
#include "run/launch.hpp"

namespace sv {

std::optional<KernelRefusal> kernel_refusal(const RunRequest& r, const RunRequest& base) {
  const OpKind op = r.op.value_or(OpKind::Sum);
  if (r.algorithm != base.algorithm) return KernelRefusal{"algo", "", "choose one, a built-in algorithm or a kernel of your own"};
  if (r.options != base.options) return KernelRefusal{"option", "", "switches belong to the built-in device-wide algorithms"};
  for (const auto& [key, mine, theirs] : {std::tuple{"flags", &r.flags, &base.flags}, std::tuple{"app", &r.app, &base.app},
                                          std::tuple{"predicate", &r.predicate, &base.predicate}})
    if (*mine != *theirs) return KernelRefusal{key, "", "segmented scans and applications run the built-in algorithms"};
  if (r.executor == "gpu") return KernelRefusal{"executor", "gpu", "a kernel of your own runs on the CPU emulator only"};
  if (r.amplify != base.amplify) return KernelRefusal{"amplify", "", "the race amplifier is the GPU executor's"};
  if (r.input == "slides" && base.input != "slides")
    return KernelRefusal{"input", "slides", "give the values (--input 3,1,7,0,4,1,6,3)"};
  if (op != OpKind::Sum && op != OpKind::Interval)
    return KernelRefusal{"op", std::string(op_name(op)), "a kernel of your own scans with its + (sum), or runs symbolically (interval)"};
  return std::nullopt;
}

cuda::KernelRunConfig own_kernel_config(const RunRequest& r, const OwnSource& own) {
  if (const auto no = kernel_refusal(r))
    throw RequestError(no->key, "a kernel of your own with {" + no->key + "}" + (no->value.empty() ? "" : " " + no->value) + ": " + no->why);
  cuda::KernelRunConfig c;
  c.file = own.file;
  c.source = own.text;
  c.include = own.include;
  c.grid = own.grid;
  const OpKind op = r.op.value_or(OpKind::Sum);
  c.symbolic = op == OpKind::Interval;
  c.exclusive = r.exclusive;
  c.block = r.block;
  c.warp = r.warp.value_or(32);
  if (c.warp < 1 || c.warp > 32 || (c.warp & (c.warp - 1)) != 0)
    throw RequestError("warp", "{warp} " + std::to_string(c.warp) + " is not a power of two from 1 to 32");
  c.schedule = *Schedule::parse(r.schedule.empty() ? "in-order" : r.schedule, r.seed);
  c.input_seed = r.seed;
  c.n = r.n.value_or(8);
  if (!r.launch.empty()) {
    try {
      c.launch = parse_launch(r.launch);
    } catch (const LaunchError& e) {
      throw RequestError("launch", "{launch}: " + std::string(e.what()));
    }
    if (c.block) throw RequestError("block", "{block} and {launch}: the launch says the block");
  }
  if (!r.input.empty() || r.type) {
    const ValueType type = cuda::kernel_run_type(c);
    if (r.type && *r.type != type)
      throw RequestError("type", "{type} " + std::string(type_name(*r.type)) + ": this kernel scans " + std::string(type_name(type)) +
                                     " (the type its output points to)");
    if (!r.input.empty()) {
      try {
        c.input = parse_value_list(r.input, type);
      } catch (const std::invalid_argument& e) {
        throw RequestError("input", "{input}: " + std::string(e.what()));
      }
      if (!r.n) c.n = static_cast<std::int64_t>(c.input.size());
    }
  }
  return c;
}

}  // namespace sv
