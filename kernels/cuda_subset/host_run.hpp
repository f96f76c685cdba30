// A host function of the file as the entry (--launch 'scan_gpu(io, n)'): it runs on one emulated
// thread, its cudaMalloc, cudaMemcpy and cudaMemset act on the global buffers, and each of its
// <<<...>>> launches runs the kernel's blocks, one after another, on those buffers. One trace holds
// every launch: their steps in order, each launch's blocks numbered after the earlier launches'
// (so that no race is seen between two launches), every buffer the run had (docs/kernel-subset.md).
#pragma once

#include "cuda_subset/record_kernel.hpp"

namespace sv::cuda {

// Runs config's host function (config.launch->host) at config.n, judged against the scan of the whole
// input. Throws as record_kernel_launch; a launch that cannot run (a block of 0 or 2000 threads) is
// an EmulationError at its line. meta.block is the first launch's threads, meta.grid 1. `first`, when
// given, gets the first launch's threads, grid and elements a block as soon as it starts, also when
// the run then faults.
KernelRun record_host_run(const KernelRunConfig& config, Launch* first = nullptr);

}  // namespace sv::cuda
