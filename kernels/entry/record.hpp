// The one way a run becomes a trace, below every front end: the command line, the window, the page
// and the lesson's own-kernel editor fill a RunRequest (and, for a kernel of their own, its source)
// and call record(), which decides the GPU or the emulator, a block-level or device-wide algorithm
// or a kernel of the user's own, and returns the trace with where it ran and why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cuda_subset/lexer.hpp"
#include "gpu/executor.hpp"
#include "run/request.hpp"
#include "trace/trace.hpp"

namespace sv {

// A kernel of the user's own: the file's name (for messages), its text, and how its #include "x.h"
// lines are read. Not a request field: the request is also a link and a trace's meta, which carry
// no file; the launch is (RunRequest::launch).
struct OwnSource {
  std::string file;
  std::string text;
  cuda::IncludeReader include;
  std::int32_t grid = 0;  // without a launch: the blocks (0: as many as n needs)
};

struct RecordOptions {
  std::uint64_t trace_capacity = GpuOptions{}.trace_capacity;  // GPU: events the device buffer holds
  std::optional<OwnSource> own;                                 // the kernel of the user's own to run
};

struct Recording {
  Trace trace;
  bool gpu = false;  // where it ran
  std::string why;   // why the emulator ran where the request said auto ("" when it was asked for)
};

// Where a built-in algorithm's `r` runs: the GPU when one is usable and the request does not ask for
// the emulator (a schedule, a warp narrowing a block algorithm's lockstep), else the emulator; `why`
// says why auto chose the emulator. Throws RequestError (field executor) for executor=gpu without a
// usable device. A kernel of the user's own always runs on the emulator.
bool runs_on_gpu(const RunRequest& r, std::string& why);

// The run `r` asks for, recorded. Throws RequestError for a request that cannot run (its field
// named), cuda::KernelError for a kernel of the user's own outside what is read, EmulationError for a
// fault of that kernel as it runs, GpuError for a CUDA failure.
Recording record(const RunRequest& r, const RecordOptions& options = {});

}  // namespace sv
