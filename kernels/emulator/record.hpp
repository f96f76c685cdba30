// Records a scan on the CPU emulator into a Trace: the emulator's entry points.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "run/config.hpp"
#include "run/prepare.hpp"
#include "trace/trace.hpp"

namespace sv {

// Throws std::invalid_argument for a configuration that cannot run (unknown algorithm, n too large,
// operator and type that don't go together, wrong input length) and EmulationError when the kernel
// does something the emulator cannot continue from.
Trace record_block_scan(const BlockRunConfig& config);

// The same for the device-wide algorithms (hierarchical, reduce-then-scan, chained,
// decoupled-lookback): the emulator's simulated multiprocessors run the grid. A deadlock (static
// tile ids under an adversarial launch order) ends the run with outcome Deadlock and the waiting
// tiles; it never hangs.
Trace record_device_scan(const BlockRunConfig& config);

// Either of the two, by the algorithm's name.
Trace record_scan(const BlockRunConfig& config);

}  // namespace sv
