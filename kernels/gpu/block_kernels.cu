// The block-level scan kernels built by nvcc from the same headers the emulator runs, untraced, for
// every algorithm and operator. The GPU executor launches these; building them here also makes CI
// (which has nvcc but no GPU) catch device-side compile errors.
#include "block/blelloch.hpp"
#include "block/brent_kung.hpp"
#include "block/kogge_stone.hpp"
#include "block/kogge_stone_double_buffer.hpp"
#include "block/kogge_stone_racy.hpp"
#include "block/sklansky.hpp"
#include "core/ops.hpp"
#include "gpu/gpu_exec.cuh"

namespace sv::gpu {

template <class Algo, class Op>
__global__ void block_scan_kernel(const typename Op::value_type* d_in, typename Op::value_type* d_out, BlockParams p) {
  extern __shared__ __align__(16) unsigned char s_mem[];
  UntracedExec x(d_in, d_out, s_mem);
  Algo::run(x, Op{}, p);
}

template <class Algo>
void instantiate_for_every_op() {
  (void)&block_scan_kernel<Algo, SumOp<std::int32_t>>;
  (void)&block_scan_kernel<Algo, SumOp<std::int64_t>>;
  (void)&block_scan_kernel<Algo, SumOp<float>>;
  (void)&block_scan_kernel<Algo, SumOp<double>>;
  (void)&block_scan_kernel<Algo, ProductOp<std::int32_t>>;
  (void)&block_scan_kernel<Algo, ProductOp<std::int64_t>>;
  (void)&block_scan_kernel<Algo, ProductOp<float>>;
  (void)&block_scan_kernel<Algo, ProductOp<double>>;
  (void)&block_scan_kernel<Algo, MinOp<std::int32_t>>;
  (void)&block_scan_kernel<Algo, MinOp<std::int64_t>>;
  (void)&block_scan_kernel<Algo, MinOp<float>>;
  (void)&block_scan_kernel<Algo, MinOp<double>>;
  (void)&block_scan_kernel<Algo, MaxOp<std::int32_t>>;
  (void)&block_scan_kernel<Algo, MaxOp<std::int64_t>>;
  (void)&block_scan_kernel<Algo, MaxOp<float>>;
  (void)&block_scan_kernel<Algo, MaxOp<double>>;
  (void)&block_scan_kernel<Algo, IntervalOp>;
}

// Referenced from the host so every kernel above is compiled for the device.
void instantiate_block_kernels() {
  instantiate_for_every_op<KoggeStoneRacy>();
  instantiate_for_every_op<KoggeStone>();
  instantiate_for_every_op<KoggeStoneDoubleBuffer>();
  instantiate_for_every_op<BrentKung>();
  instantiate_for_every_op<Blelloch>();
  instantiate_for_every_op<Sklansky>();
}

}  // namespace sv::gpu
