// The report card of a scan kernel of the user's own (`scanviz check`): the kernel run over many sizes,
// inputs, schedules and lockstep widths, its hazards, faults, work and steps, and which known algorithm
// it matches. Pure data; app/check_report.cpp prints it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "cuda_subset/lexer.hpp"
#include "run/launch.hpp"

namespace sv::cuda {

struct CheckCase {
  std::int64_t n = 0;
  std::int32_t grid = 1;
  std::int32_t warp = 32;
  std::string schedule;
  std::string input;    // "integers" (exact in float) or "floats" (judged with a tolerance)
  std::string outcome;  // "correct", "wrong" or "error"
  std::string detail;   // what went wrong, one line
};

struct CheckHazard {
  std::string kind;    // RAW, WAR, WAW
  std::string buffer;
  std::string memory;  // shared, or global (a race compute-sanitizer's racecheck does not see)
  std::int64_t index = 0;
  std::uint32_t line_write = 0;
  std::uint32_t line_read = 0;  // 0 for WAW: the second access wrote too (line_second)
  std::uint32_t line_second = 0;
  std::uint32_t thread_first = 0, thread_second = 0;
  // Between blocks of one launch (analysis/block_races.hpp): the first access's and the second's
  // blocks; -1 for a race inside one block.
  std::int64_t block_first = -1, block_second = -1;
  int step = 0;
  std::int64_t n = 0;
  std::string schedule;
  std::int32_t warp = 32;
};

// Who touched the cell and what should have ordered them, as the card says it: "thread 0 wrote it
// (line 9), thread 1 read it (line 9), no __syncthreads() between", or between blocks "thread 255 of
// block 0 wrote it (line 36), thread 0 of block 1 read it (line 33), no __threadfence() and flag between".
std::string hazard_accesses(const CheckHazard& h);

struct CheckError {
  std::string kind;  // syntax, unsupported, limit, launch, out-of-bounds, uninitialized-read, barrier-divergence, budget, runtime, wrong-value
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;
  std::string severity = "error";  // "warning": found, and harmless here (a read of a cell never written whose value reaches nothing)
};

// `check --gpu`: the kernel compiled by nvcc and run on the device (app/check_gpu.*).
struct CheckGpu {
  bool ran = false;
  std::string note;    // one line: why it did not run, or what stopped it part way
  std::string device;  // the GPU's name
  std::int64_t cases = 0, matching = 0;  // launches of the check's sizes and inputs, and those matching the reference
  std::int32_t own_block = 0;            // the file's own block where it differs from the check's: those cases run at it too
  std::int64_t own_cases = 0;            // launches at the own block (counted in cases and matching too)
  std::vector<CheckCase> mismatches;     // outcome "wrong", with the first wrong cell
  bool timed = false;
  std::int64_t timed_n = 0, timed_grid = 0;
  std::int32_t timed_block = 0;
  double kernel_ms = 0, cub_ms = 0, copy_ms = 0;  // medians of CUDA-event timings
};

struct CheckReport {
  std::string file;
  std::string kernel;
  std::string launch;  // the launch that ran, as a --launch line (given, or inferred: a starting point to edit)
  bool launch_said = false;  // given (--launch, a rubric) or the file's own host code's, not inferred
  std::vector<std::string> kernels;  // every __global__ kernel of the file
  std::int32_t block = 0;
  std::int64_t capacity = 0;  // elements one block scans
  bool exclusive = false;
  bool exclusive_told = false;  // told from the outputs (not said with --exclusive)
  std::vector<CheckCase> cases;
  std::vector<std::string> schedules;  // the cases' schedules and lockstep widths (fewer for blocks of over 64 threads)
  std::vector<std::int32_t> warps;
  std::vector<CheckHazard> hazards;
  std::vector<CheckError> errors;      // faults and source errors (kind syntax/unsupported: nothing ran)
  std::vector<CheckError> diagnoses;  // for wrong outputs: what the symbolic run shows (kind "wrong-value"), with lines
  std::optional<std::int64_t> work, steps;
  std::int64_t work_n = 0;            // the n work and steps were measured at
  std::optional<std::string> matches;  // the known algorithm whose closed forms equal them at work_n
  std::string verdict;                 // correct, wrong (a bug found by running it), error (it cannot run as asked)
  std::string float_judge;             // how float outputs were judged (float_judge.hpp); empty for integer kernels
  std::optional<CheckGpu> gpu;         // with --gpu
  std::vector<std::string> printed;    // printf's first lines, in the first case that printed
  std::string printed_case;            // that case: "n = 8, schedule in-order, warp 32"
};

struct CheckOptions {
  std::int32_t block = 0;  // 0: 8 threads (small enough to try every schedule)
  bool exclusive = false;  // said: judge as exclusive; else told from the outputs
  std::optional<LaunchSpec> launch;  // how the kernel is launched (its kernel, block and arguments); else inferred
  std::vector<std::int64_t> sizes;   // the cases' sizes; empty: check_sizes of the block's elements
  IncludeReader include;             // reads an #include "local.h"
  double float_tolerance = 1;        // float outputs: this many times the error bound of their additions (float_judge.hpp)
};

// The input of a check's case of n elements: small integers (exact in float) or random floats.
std::vector<Payload> check_input(ValueType type, std::int64_t n, bool floats);

// The sizes a check runs for blocks of `capacity` elements.
std::vector<std::int64_t> check_sizes(std::int64_t capacity);

CheckReport check_kernel(const std::string& file, const std::string& source, const CheckOptions& options = {});

// check_kernel a part at a time, for a caller that must stay responsive (the page grades between its
// frames, the window shows the progress): step() runs the preparation first (the parse, the
// launch's probes, work and steps: a few runs), then one case a call, and says whether any is left;
// finish() gives the same report check_kernel does.
class CheckRun {
 public:
  CheckRun(const std::string& file, const std::string& source, const CheckOptions& options = {});
  ~CheckRun();
  CheckRun(CheckRun&&) noexcept;
  CheckRun& operator=(CheckRun&&) noexcept;
  bool step();
  std::size_t cases_run() const;
  std::size_t cases_planned() const;  // 0 until the preparation has run
  const CheckReport& partial() const;  // what the parts run so far found (no verdict yet)
  CheckReport finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sv::cuda
