// The kernel as the window shows it, in two forms: the CUDA form a student knows from the slides
// (kernels/block/cuda/ALGO.cu, a __global__ kernel with __syncthreads()) and the emulator form
// (kernels/block/ALGO.hpp, the templated source the emulator and the GPU executor both run), and
// which of their lines a step of a trace lights.
//
// The CUDA form names its lines by what happens there, not by the emulator's line numbers: a trailing
// comment's words that start with '@' mark the line, each as @PHASE[=N|>N][:KIND,KIND...], where
// PHASE is a phase name as the trace writes it ("stride", "up-sweep"), =N or >N limits the mark to
// steps whose parameter is N or above N, and KIND is step (where the step starts: its loop header),
// read, write, op or barrier (the events of the step done there); no kinds means every kind. A step
// lights the lines marked for its phase as a step, and for the kind of each of its events.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/phase.hpp"
#include "trace/trace.hpp"

namespace sv {

// What a marked line does in a step: where it starts, then the events' kinds (EventKind's order).
enum class MarkKind : std::uint8_t { Step, Read, Write, Op, Barrier };
inline constexpr int kMarkKindCount = 5;
inline constexpr std::uint8_t kEveryMarkKind = (1u << kMarkKindCount) - 1;  // a mark that names no kinds

struct SourceMark {
  enum class When : std::uint8_t { Any, Equal, Above };
  Phase phase = Phase::Load;
  When when = When::Any;
  std::int64_t param = 0;
  std::uint8_t kinds = 0;  // a bit for each MarkKind

  bool matches(const Step& step, MarkKind kind) const;
};

// The kinds a step needs lines for, as MarkKind bits: its start, and the kind of each of its events.
std::uint8_t step_mark_kinds(const Trace& t, const Step& s);

struct SourceLine {
  std::string text;  // as shown: the marks taken out of its comment (and the comment, when only marks)
  std::vector<SourceMark> marks;
};

// The lines of a CUDA form. Throws std::invalid_argument naming the line and the bad mark (an
// unknown phase or kind, a bad parameter).
std::vector<SourceLine> parse_cuda_form(std::string_view text);

// Where the forms are under kernels/ (and under these names embedded in the program): the CUDA form
// "block/cuda/kogge_stone.cu" (empty for a device-wide algorithm: it has none), the emulator form
// "block/kogge_stone.hpp" or "device/chained.hpp".
std::string cuda_form_file(std::string_view algorithm);
std::string emulator_form_file(std::string_view algorithm);

// The emulator form's lines (from 1) that step `step` of `t` lights: where it starts and where each
// of its events happened. Empty past the last step.
std::set<std::uint32_t> emulator_lines(const Trace& t, int step);

// The CUDA form's lines (from 1) that the step lights.
std::set<std::uint32_t> cuda_lines(const std::vector<SourceLine>& form, const Trace& t, int step);

// What of the step no line of the form is marked for, as "stride = 2: barrier"; empty when every
// part of it maps to a line.
std::vector<std::string> unmapped_parts(const std::vector<SourceLine>& form, const Trace& t, int step);

}  // namespace sv
