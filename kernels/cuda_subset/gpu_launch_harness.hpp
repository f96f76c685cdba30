// The nvcc harness of `scanviz check --gpu` for a launch the file's author says (--launch, a rubric's,
// or the file's own host function): the whole file compiled by nvcc as it is written, its own `main`
// renamed away, and the launch run on the check's cases exactly as its line says. Generation only:
// app/check_gpu.* compiles and runs it, and reads what it writes with read_harness_output.
#pragma once

#include <string>

#include "core/payload.hpp"
#include "cuda_subset/gpu_harness.hpp"
#include "cuda_subset/lexer.hpp"
#include "run/launch.hpp"

namespace sv::cuda {

struct LaunchHarness {
  std::string student;  // student.cu: the file, unchanged (its local #includes are found with -I its folder)
  std::string main;     // harness.cu: the harness, then student.cu included, then the launch
  ValueType type = ValueType::F32;
  bool timed = false;   // a kernel launch is timed; a host function is not (its copies and allocations would be)
};

// Throws KernelError where the file or the launch's entry cannot be parsed (the check has said so
// already), LaunchError where an argument does not fit the entry's parameter (ditto).
LaunchHarness make_launch_harness(const std::string& file, const std::string& source, const LaunchSpec& launch, bool exclusive,
                                  const IncludeReader& include = {});

}  // namespace sv::cuda
