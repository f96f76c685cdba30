// The lesson on a kernel of the user's own (own_kernel.hpp).
#include "gui/lesson/own_kernel.hpp"

#include <chrono>
#include <stdexcept>

#include "core/values.hpp"
#include "cuda_subset/diagnostic.hpp"
#include "cuda_subset/parser.hpp"
#include "entry/record.hpp"
#include "kernel_run.hpp"

namespace sv::gui {

std::int32_t own_kernel_auto_warp(const OwnKernel& k) { return k.text.find("__shfl") != std::string::npos ? 32 : 1; }

RunRequest own_kernel_request(const RunRequest& lesson, const OwnKernel& k) {
  RunRequest r;
  r.n = lesson.n;
  r.block = lesson.block;
  r.warp = lesson.warp ? lesson.warp : std::optional<std::int32_t>(own_kernel_auto_warp(k));
  const OpKind op = lesson.op.value_or(OpKind::Sum);
  r.op = op == OpKind::Interval ? OpKind::Interval : OpKind::Sum;
  r.exclusive = lesson.exclusive;
  r.input = lesson.input == "slides" ? "" : lesson.input;
  r.seed = lesson.seed;
  r.schedule = lesson.schedule;
  r.launch = lesson.launch;
  return r;
}

namespace {

Trace record(const OwnKernel& k, const RunRequest& lesson) {
  cuda::KernelRunConfig c = own_kernel_config(own_kernel_request(lesson, k), OwnSource{k.name, k.text, kernel_include_reader(k.name), 0});
  if (lesson.input == "slides") {
    const ValueType type = cuda::kernel_run_type(c);
    c.input = slides_input(c.symbolic ? OpKind::Interval : OpKind::Sum, type, static_cast<std::size_t>(c.n));
  }
  return cuda::record_kernel_trace(c);
}

}  // namespace

LessonRecording record_own_kernel(const std::shared_ptr<const OwnKernel>& k, const RunRequest& lesson) {
  const auto start = std::chrono::steady_clock::now();
  LessonRecording r;
  r.ran_kernel = k;
  try {
    const auto as_sum = [&] {
      RunRequest sum = lesson;
      sum.op = OpKind::Sum;
      r.view = std::make_unique<TraceView>(make_trace_view(record(*k, sum)));
    };
    try {
      r.view = std::make_unique<TraceView>(make_trace_view(record(*k, lesson)));
    } catch (const EmulationError& e) {
      // A kernel whose values cannot be symbolic (a constant other than 0, a value tested as a
      // condition) runs as a sum rather than not at all; the status line says so.
      if (std::string(e.what()).find("(--op interval)") == std::string::npos) throw;
      as_sum();
    } catch (const cuda::KernelError& e) {
      // An integer kernel has no symbolic run: the interval lesson's default runs it as a sum.
      if (lesson.op != OpKind::Interval || e.message.find("symbolically") == std::string::npos) throw;
      as_sum();
    }
  } catch (const cuda::KernelError& e) {
    r.error = e.what();
    r.error_line = e.pos.line;
  } catch (const EmulationError& e) {
    r.error = kernel_fault_line(e, k->name);
    r.error_line = e.line;
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  r.record_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace sv::gui
