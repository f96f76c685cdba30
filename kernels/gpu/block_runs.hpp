// The block-level kernels of one algorithm on the GPU, declared for the executor's dispatch and
// defined in gpu/block_runs.cuh. Each algorithm's traced and untraced kernels are instantiated in
// compilation units of their own, which kernels/CMakeLists.txt generates from the algorithm table
// (algorithms.def), so a build compiles them in parallel and a change to one algorithm recompiles it alone.
#pragma once

#include <cstdint>

#include "algorithms.hpp"
#include "block/block_params.hpp"
#include "core/ops.hpp"
#include "gpu/executor.hpp"
#include "trace/trace.hpp"

namespace sv::gpu {

// Untraced: the kernels the device-wide hierarchical scan launches and `scanviz race` counts.
template <class Algo>
struct BlockRuns {
  // `grid` blocks of `threads`, each scanning its own tile of p.capacity elements (no synchronization).
  static void launch(OpKind op, ValueType type, const void* in, void* out, const BlockParams& p, std::int64_t grid,
                     std::int32_t threads);
  static WrongCount count_wrong(const BlockRunConfig& config, const BlockShape& shape, const TraceMeta& meta, int runs,
                                std::uint64_t amplify_seed);
};

// Traced: one block recording every access, barrier and step into `trace` (plain and segmented operators).
template <class Algo>
struct BlockTracedRuns {
  static void record(const BlockRunConfig& config, const BlockShape& shape, const GpuOptions& options, Trace& trace);
};

}  // namespace sv::gpu
