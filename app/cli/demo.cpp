// `scanviz demo` (demo.hpp).
#include "cli/demo.hpp"

#include <iostream>

#include "core/values.hpp"
#include "emulator/record.hpp"
#include "gpu/executor.hpp"
#include "text_view.hpp"

namespace sv::cli {

int run_demo() {
  const GpuStatus gpu = probe_gpu();
  std::cout << "scanviz demo: Kogge-Stone (double buffered) on the slides' input, step by step.\n"
               "Executor: the CPU emulator, which runs the same kernel source that nvcc builds for the GPU ("
            << (gpu.usable ? "GPU present: " + gpu.name + "; scanviz trace uses it" : "no usable GPU: " + gpu.error)
            << ").\n\n";
  for (OpKind op : {OpKind::Sum, OpKind::Interval}) {
    BlockRunConfig c;
    c.algorithm = "kogge-stone-double-buffer";
    c.n = 8;
    c.op = op;
    c.type = default_type_for(op);
    c.input = slides_input(op, c.type, 8);
    print_steps(std::cout, record_block_scan(c));
    std::cout << "\n";
  }
  std::cout << "Next: scanviz algos | scanviz trace --algo kogge-stone-racy --n 64 --op interval --out t.json\n"
               "      scanviz show t.json | scanviz stats t.json\n";
  return 0;
}

Command add_demo(CLI::App& app) {
  return {app.add_subcommand("demo", "print Kogge-Stone on the slides' input, step by step, in the terminal"), run_demo};
}

}  // namespace sv::cli
