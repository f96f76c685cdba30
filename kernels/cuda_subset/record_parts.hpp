// The pieces of record_kernel.cpp that host_run.cpp runs a host function's launches with: a kernel
// bound to a launch, the global memory between blocks and launches, one block's run, and the
// judging of the output. Not for use outside cuda_subset/.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cuda_subset/record_kernel.hpp"

namespace sv::cuda::detail {

// Each thread's stack (the interpreter does not recurse; a fault's message and a debug build's frames fit).
#ifdef __EMSCRIPTEN__
constexpr std::size_t kInterpreterStack = 96 * 1024;  // the page's stacks are real memory: 96 MiB for 1024 threads
#else
constexpr std::size_t kInterpreterStack = 256 * 1024;  // reserved, not committed: untouched pages cost nothing
#endif

// A kernel bound to a launch: what every block of it shares.
struct Bound {
  Kernel k;
  Binding bind;
  TraceMeta meta;
  std::vector<ParamBinding::Extra> extras;  // the global buffers from 2
  bool in_place = false;
};

// The global buffers between the blocks of a launch: what the earlier blocks left (empty before the first).
struct GlobalMemory {
  std::vector<std::vector<Payload>> values;
  std::vector<std::vector<std::uint8_t>> defined;
};

std::int64_t cell_bytes(Base b);
// The extern __shared__ arrays' element (the first one's: they are one allocation), if any.
std::optional<Base> dynamic_element(const Kernel& k);
// Refuses a block's shared memory past what a GPU gives (the launch's dynamic bytes and the static arrays).
void check_shared_size(const Kernel& k, std::int64_t dynamic_bytes);
// The kernel of config bound to launch `l`: its parameters, the run's type, the trace's meta.
Bound bind_launch(const KernelRunConfig& c, const Launch& l);
// A buffer's cells set to `v`, in the run's type.
Payload fill_value(ValueType type, double v);
// One block of the launch into `trace`, on `memory`, which it leaves as the block did. Returns the
// statements it ran.
std::int64_t run_block(const KernelRunConfig& c, const Bound& b, std::int32_t block_id, Trace& trace, GlobalMemory& memory,
                       const Budget& budget, std::vector<UninitializedRead>& uninitialized);
// The first lines printf printed, kept in the trace (meta.options["printf"], one a line).
void note_printed(Trace& t, const std::vector<std::string>& printed);
// The output judged: against the whole input's scan when it is that, else each block's section's.
void judge_launch(Trace& t, std::vector<Payload> output);

}  // namespace sv::cuda::detail
