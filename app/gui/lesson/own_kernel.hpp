// A kernel of the user's own as the window's lesson: its text (what the lesson records), the lesson's
// request as that kernel's run, and the recording, whose error names the kernel's line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gui/lesson/lesson.hpp"
#include "run/request.hpp"

namespace sv::gui {

// The kernel's source as the lesson holds it; shared, never changed, so a recording on the worker
// and the source pane read the same text.
struct OwnKernel {
  std::string name;  // what messages call it: the file's name ("scan.cu"), or "your kernel"
  std::string text;
};

inline std::shared_ptr<const OwnKernel> make_own_kernel(std::string name, std::string text) {
  return std::make_shared<const OwnKernel>(OwnKernel{std::move(name), std::move(text)});
}

// The threads run in lockstep when the lesson's lockstep is "auto": each on its own (the slides'
// picture, where a race shows as a wrong value), or 32 for a kernel with warp shuffles (the width
// they assume).
std::int32_t own_kernel_auto_warp(const OwnKernel& k);

// The lesson's request as the kernel's run request: n, block, lockstep, operator (sum, or interval
// for the slides' x0..x3), exclusive, input (the slides' values are the first n of 3 6 7 4 8 2 1 9,
// or x0.. under interval), seed and schedule; the fields only the built-in algorithms have left out.
RunRequest own_kernel_request(const RunRequest& lesson, const OwnKernel& k);

// Records the kernel as the lesson asks: its view, or the error in one line (FILE:LINE:COL: error:
// ...) with the line it names (0 where it names none), the traces left empty. Asked for the interval
// operator, a kernel whose values cannot be symbolic runs as a sum (the trace's operator says so).
LessonRecording record_own_kernel(const std::shared_ptr<const OwnKernel>& k, const RunRequest& lesson);

}  // namespace sv::gui
