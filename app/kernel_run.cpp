// A kernel of the user's own as a run (kernel_run.hpp).
#include "kernel_run.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/ops.hpp"
#include "core/values.hpp"
#include "cuda_subset/lexer.hpp"
#include "cuda_subset/parser.hpp"

namespace sv {

std::string read_kernel_source(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw std::invalid_argument(path + " is a directory, not a kernel source");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read the kernel " + path);
  std::string text(cuda::kMaxSourceBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > cuda::kMaxSourceBytes)
    throw std::invalid_argument(path + ": more than " + std::to_string(cuda::kMaxSourceBytes) + " bytes: a kernel this long is refused");
  return text;
}

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

std::string kernel_refusal_line(const KernelRefusal& no) {
  return "--kernel with --" + no.key + (no.value.empty() ? "" : " " + no.value) + ": " + no.why;
}

cuda::KernelRunConfig kernel_run_config(const std::string& file, std::string source, const RunRequest& r) {
  if (const auto no = kernel_refusal(r)) throw std::invalid_argument(kernel_refusal_line(*no));
  cuda::KernelRunConfig c;
  c.file = file;
  c.source = std::move(source);
  const OpKind op = r.op.value_or(OpKind::Sum);
  c.symbolic = op == OpKind::Interval;
  c.exclusive = r.exclusive;
  c.block = r.block;
  c.warp = r.warp.value_or(32);
  if (c.warp < 1 || c.warp > 32 || (c.warp & (c.warp - 1)) != 0)
    throw std::invalid_argument("--warp " + std::to_string(c.warp) + " is not a power of two from 1 to 32");
  c.schedule = *Schedule::parse(r.schedule.empty() ? "in-order" : r.schedule, r.seed);
  c.input_seed = r.seed;
  c.n = r.n.value_or(8);
  if (!r.input.empty() || r.type) {
    const ValueType type = cuda::run_type_of(cuda::parse_kernel(c.source, c.file), c.symbolic);
    if (r.type && *r.type != type)
      throw std::invalid_argument("--type " + std::string(type_name(*r.type)) + ": this kernel scans " +
                                  std::string(type_name(type)) + " (the type its pointer parameters point to)");
    if (!r.input.empty()) {
      try {
        c.input = parse_value_list(r.input, type);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--input: ") + e.what());
      }
      if (!r.n) c.n = static_cast<std::int64_t>(c.input.size());
    }
  }
  return c;
}

std::string kernel_fault_line(const EmulationError& e, const std::string& file) {
  const std::string what = e.what();
  if (what.rfind(file + ":", 0) == 0 || e.line == 0) return what;
  return file + ":" + std::to_string(e.line) + ":1: error: " + what;
}

}  // namespace sv
