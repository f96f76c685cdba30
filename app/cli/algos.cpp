// `scanviz algos` (algos.hpp).
#include "cli/algos.hpp"

#include <iostream>
#include <string>

#include "algorithms.hpp"
#include "device/device_options.hpp"

namespace sv::cli {

namespace {

int list_algorithms() {
  std::cout << "Block-level algorithms (one thread block; n up to the block's capacity):\n\n";
  for (const AlgorithmInfo& a : block_algorithms()) {
    std::cout << "  " << a.name << "\n      " << a.summary << "\n      elements per thread: " << a.items_per_thread
              << ", n up to " << kMaxBlockThreads * a.items_per_thread << "; ";
    if (a.power_of_two)
      std::cout << "capacity padded to a power of two with the identity (block = capacity"
                << (a.items_per_thread == 1 ? "" : " / " + std::to_string(a.items_per_thread)) << " threads)";
    else
      std::cout << "any n (block = n threads unless --block is larger; extra threads hold the identity)";
    std::cout << "\n      steps " << a.steps << ", operations " << a.work << " (n = 2^k";
    if (a.warp_level) {
      const ClosedForm fig = *closed_form(a.name, 16, false, 4);
      std::cout << ", W = --warp: a power of two from 2 to 32, at most the block; default 32, or the block when "
                   "smaller)\n      Fig. 2 (n = 16, --warp 4): "
                << fig.steps << " levels, " << fig.operations << " operators";
    } else {
      std::cout << ")";
    }
    if (a.racy) std::cout << "\n      RACY by design: shows hazards under every schedule, wrong results under some";
    std::cout << "\n";
  }
  std::cout << "\nCounting (stats' steps and operations, for every algorithm): an operator is one application of\n"
               "the scan operator, a node of the seeds' figures (Merrill and Garland count 37, 29 and 36 in Fig. 2);\n"
               "loads, stores, copies and warp shuffles are not operators. A step (level) is a round that applies\n"
               "the operator at least once: each shuffle offset of a warp scan, each serial item of a raking lane,\n"
               "each fan or span. Warp-level steps have no barrier of the kernel's own; the recorders align the\n"
               "threads there so each step holds its level.\n";
  std::cout << "\nDevice-wide algorithms (any n; tiles of --block threads x items per thread):\n\n";
  for (const DeviceAlgorithmInfo& a : device_algorithms()) {
    std::cout << "  " << a.name << "\n      " << a.summary << "\n      switches:";
    for (const SwitchInfo& s : device_switches())
      if (!s.machine && switch_applies(s, a))
        std::cout << " " << s.key;
    std::cout << "\n";
  }
  std::cout << "\nSwitches (--option key=value, repeatable; default in brackets):\n";
  for (const SwitchInfo& s : device_switches())
    std::cout << "  " << s.key << " [" << s.fallback << "]" << (s.emulator_only ? " (emulator's machine, all algorithms)" : "")
              << "\n      " << s.help << (s.emulator_only ? "" : "\n      for: " + switch_algorithms(s)) << "\n";
  std::cout << "\nOperators (--op, --type; the first type is the default):\n"
               "  sum, product, min, max    int32, int64, float, double\n"
               "  and, or                   int32, int64: logical, on truth values 0 and 1 (identity 1 and 0)\n"
               "  bitand, bitor, bitxor     int32, int64: bitwise (identity all ones, 0, 0)\n"
               "  interval                  interval: symbolic ranges x0..x3; joins only adjacent ranges\n"
               "Schedules: in-order, reverse, round-robin, random:SEED.\n"
               "\nSegmented scan (--flags 1,0,0,1,... or random:P; every operator, inclusive):\n"
               "  every block algorithm above, and decoupled-lookback device-wide, scan (flag, value) pairs with\n"
               "  the segmented operator (f1,v1) (+)s (f2,v2) = (f1|f2, f2 ? v2 : v1 (+) v2), associative for every\n"
               "  associative (+): the same kernels; a set flag starts a segment, where the scan restarts.\n"
               "  The GPU runs it for int32 and interval values; the emulator for every type.\n"
               "\nApplications (--app; the scan is the exclusive sum, by any algorithm above):\n"
               "  compact   stream compaction: --predicate \"x > 0\" (x % K, < <= > >= == !=, &&, ||, !);\n"
               "            the exclusive sum of the predicate is each kept element's output slot\n"
               "  allocate  allocation: the exclusive sum of the requests is each one's offset\n"
               "            ([8,6,7,5,3,0,9] -> [0,8,14,21,26,29,29])\n";
  return 0;
}

}  // namespace

Command add_algos(CLI::App& app) {
  return {app.add_subcommand("algos", "list the algorithms and their switches"), list_algorithms};
}

}  // namespace sv::cli
