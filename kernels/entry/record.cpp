// The one recording entry (record.hpp).
#include "entry/record.hpp"

#include "algorithms.hpp"
#include "emulator/record.hpp"
#include "entry/own_run.hpp"
#include "run/prepare.hpp"

namespace sv {

bool runs_on_gpu(const RunRequest& r, std::string& why) {
  if (r.executor == "emulator") return false;
  const AlgorithmInfo* info = find_algorithm(r.algorithm);
  const bool narrowed = r.warp && info && !info->warp_level;
  if (r.executor == "gpu") {
    const GpuStatus gpu = probe_gpu();
    if (!gpu.usable) throw RequestError("executor", "{executor} gpu: no usable CUDA device (" + gpu.error + "); use {executor} emulator");
    return true;
  }
  if (!r.schedule.empty() || narrowed) {
    why = !r.schedule.empty() ? "{schedule} given" : "{warp} given";
    return false;
  }
  const GpuStatus gpu = probe_gpu();
  if (gpu.usable) return true;
  why = "no usable CUDA device: " + gpu.error;
  return false;
}

Recording record(const RunRequest& r, const RecordOptions& options) {
  Recording out;
  if (options.own) {  // the emulator, always (kernel_refusal refuses executor=gpu)
    out.trace = cuda::record_kernel_launch(own_kernel_config(r, *options.own)).trace;
    return out;
  }
  const BlockRunConfig config = run_config(r);
  out.gpu = runs_on_gpu(r, out.why);
  if (!out.gpu && r.amplify) throw RequestError("amplify", "{amplify} applies to the GPU executor only");
  const GpuOptions gpu{options.trace_capacity, r.amplify};
  if (!out.gpu) out.trace = record_scan(config);
  else if (is_device_algorithm(config.algorithm)) out.trace = record_device_scan_gpu(config, gpu);
  else out.trace = record_block_scan_gpu(config, gpu);
  return out;
}

}  // namespace sv
