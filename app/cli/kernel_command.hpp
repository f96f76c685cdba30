// How the commands on a kernel of the user's own (trace --kernel, check) end: each error as one line
// on standard error, and an exit code by what went wrong.
#pragma once

#include <iostream>
#include <string>

#include "cuda_subset/diagnostic.hpp"
#include "emulator/block_emulator.hpp"
#include "kernel_run.hpp"
#include "run/request.hpp"

namespace sv::cli {

// Runs one of the commands, each error as one line (every error of a source, as a compiler lists
// them): exit 2 for the source or the request, 1 for a fault of the kernel as it runs.
template <class F>
int kernel_command(const std::string& file, F&& f) {
  try {
    return f();
  } catch (const cuda::KernelError& e) {
    std::cerr << e.what() << "\n";
    for (const cuda::KernelError& m : e.more) std::cerr << m.what() << "\n";  // every error of the file, as a compiler lists them
    return 2;
  } catch (const EmulationError& e) {
    std::cerr << kernel_fault_line(e, file) << "\n";
    return 1;
  } catch (const RequestError& e) {
    std::cerr << "scanviz: " << request_error_text(e, "--") << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace sv::cli
