// The nvcc harness of `scanviz check --gpu`: the student's kernel, compiled by nvcc as it is written
// (its block-size macro set for the launch), launched by a generated program on the check's cases and
// timed against CUB and a device-to-device copy. Generation only: app/check_gpu.* compiles and runs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv::cuda {

struct HarnessSpec {
  std::string file;                  // the kernel's file name, for the harness's comment
  std::string source;                // the kernel's text
  std::int32_t case_threads = 8;     // the cases' block (the check's)
  std::int32_t timed_threads = 0;    // the timed block: 0 for the file's own block-size macro (else case_threads)
  bool exclusive = false;            // CUB's scan to time against: exclusive or inclusive sum
};

// The files of one harness, written side by side into one folder.
struct GpuHarness {
  std::string cases_kernel;  // cases_kernel.cu: the source, its block macro set to the cases' block
  std::string timed_kernel;  // timed_kernel.cu: the same at the timed block
  std::string main;          // harness.cu: includes both (each in a namespace) and launches them
  ValueType type = ValueType::F32;
  std::int32_t case_threads = 0, timed_threads = 0;
  std::int64_t case_capacity = 0, timed_capacity = 0;  // elements a block scans
};

// Throws KernelError where the source is outside the subset or its parameters cannot be bound (the
// check has said so already).
GpuHarness make_gpu_harness(const HarnessSpec& spec);

// The cases file the harness reads: one line a case, n and then n values ("%a" for floating point,
// exact both ways).
std::string harness_cases(ValueType type, const std::vector<std::vector<Payload>>& inputs);

// What the harness wrote: the device, each case's outputs in order, the timing, or why it stopped.
struct HarnessResult {
  std::string device;       // empty: none found (`no_device` says why)
  std::string no_device;
  std::vector<std::vector<Payload>> outputs;  // one a case it ran
  std::vector<std::vector<Payload>> own_outputs;  // one a case it ran at the file's own block (the timed one)
  std::string error;        // a CUDA error that stopped it (the cases before it are in outputs)
  bool timed = false;
  std::int64_t timed_n = 0, timed_grid = 0;
  double kernel_ms = 0, cub_ms = 0, copy_ms = 0;
};
HarnessResult read_harness_output(ValueType type, const std::string& text);

// For the harnesses' generators: the C type of `type`; every @KEY@ of `text` replaced by `value`; the
// C++ both harnesses share (CUDA errors written out, values parsed and printed exactly, the median of
// timed runs), for a harness that defines T, out_file and the standard headers before it.
const char* harness_c_type(ValueType type);
void fill_harness(std::string& text, const std::string& key, const std::string& value);
// `text` fit for a // comment of a harness: one line, and no @ that could start a @KEY@.
std::string harness_comment(std::string text);
std::string harness_common(ValueType type);

// The value `text` of a harness's output as `type`; false when it is not one.
bool parse_harness_value(ValueType type, const std::string& text, Payload& out);

}  // namespace sv::cuda
