// The set-up and judging of a run that both executors share: check a BlockRunConfig, fill the
// trace's meta (all but the executor), and judge the output against the one reference scan. Below
// the producers (emulator/, gpu/), so neither includes the other.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "algorithms.hpp"
#include "block/block_params.hpp"
#include "core/payload.hpp"
#include "run/config.hpp"
#include "trace/trace.hpp"

namespace sv {

struct DeviceConfig;

bool is_device_algorithm(std::string_view name);

// The parts every executor shares: validate the configuration and fill trace.meta (all but the
// executor) and return the block; then store the output and judge it against the reference.
// The warp width goes into meta.options["warp"] for the warp-level algorithms (TraceMeta::warp_width).
BlockShape prepare_block_trace(const BlockRunConfig& config, Trace& trace);

// About how many events a prepared block trace will record, at least as many for every block
// algorithm: recording reserves them, so the vector is not moved and its pages faulted again as it
// grows (a third of the page faults of recording n = 1024). Pages reserved and never written cost
// nothing; a run that needs more grows the vector as before.
std::size_t expected_events(const TraceMeta& meta);

// The block parameters of a prepared block trace (n, capacity, exclusive, warp width).
BlockParams block_params_of(const TraceMeta& meta);
void finish_block_trace(Trace& trace, std::vector<Payload> output);

// What the kernels scan: meta.input, or for a segmented scan its (value, flag) pairs.
std::vector<Payload> kernel_input(const TraceMeta& m);

// For the device-wide algorithms: validates (n from 0 to kMaxTracedDeviceN, switches) and fills
// trace.meta (all but the executor; options holds every switch with its value, block and
// items_per_thread the tile policy, capacity the tile size, grid the tiles) and returns the parsed
// configuration with params.n, tiles and exclusive set.
DeviceConfig prepare_device_trace(const BlockRunConfig& config, Trace& trace, bool on_gpu);

}  // namespace sv
