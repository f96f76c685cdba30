// `scanviz check --gpu` on a GPU: the kernels compiled by nvcc into the generated harness give the
// reference's outputs on the check's sizes and inputs, and are timed against CUB and a copy. Skips
// without a device (gpu_main.cpp) or without nvcc.
#include <doctest/doctest.h>

#include "../own_kernel_helpers.hpp"
#include "../skips.hpp"
#include "check_gpu.hpp"
#include "gpu/executor.hpp"

namespace {

bool have_nvcc() { return !sv::find_nvcc().empty(); }

}  // namespace

TEST_CASE("gpu check: the correct kernels run on the device as the reference says, timed against CUB and a copy" *
          sv_test::skip_unless(have_nvcc, "no nvcc (PATH, /usr/local/cuda/bin or $SCANVIZ_NVCC)")) {
  const sv::GpuStatus gpu = sv::probe_gpu();
  // (Each is one nvcc run of the harness with CUB, tens of seconds: two kernels, one with atomics.)
  for (const char* file : {"assets/kernels/blelloch_exclusive.cu", "tests/kernels/atomic_ticket.cu"}) {
    CAPTURE(file);
    const std::string source = sv_test::read_source(file);
    sv::cuda::CheckReport r = sv::cuda::check_kernel(file, source);
    REQUIRE(r.verdict == "correct");
    sv::check_on_gpu(file, source, r, {std::int64_t{1} << 20, 300});
    REQUIRE(r.gpu.has_value());
    INFO(r.gpu->note);
    REQUIRE(r.gpu->ran);
    CHECK(r.gpu->device == gpu.name);
    CHECK(r.gpu->cases >= 8);
    CHECK(r.gpu->matching == r.gpu->cases);
    // Blelloch's file launches 1024 threads: its cases run in those blocks too; the ticket's are the check's 8.
    CHECK(r.gpu->own_block == (std::string(file).find("blelloch") != std::string::npos ? 1024 : 0));
    if (r.gpu->own_block) CHECK(r.gpu->own_cases >= 8);
    CHECK(r.gpu->mismatches.empty());
    CHECK(r.gpu->note.empty());
    CHECK(r.verdict == "correct");
    REQUIRE(r.gpu->timed);
    CHECK(r.gpu->timed_n == (std::int64_t{1} << 20));
    CHECK(r.gpu->kernel_ms > 0);
    CHECK(r.gpu->cub_ms > 0);
    CHECK(r.gpu->copy_ms > 0);
  }
}

TEST_CASE("gpu check: a kernel that is wrong on the device is called wrong there" *
          sv_test::skip_unless(have_nvcc, "no nvcc (PATH, /usr/local/cuda/bin or $SCANVIZ_NVCC)")) {
  // Inclusive-not-exclusive: judged as exclusive (--exclusive), every launch's outputs differ.
  const std::string file = "tests/kernels/inclusive_not_exclusive.cu";
  const std::string source = sv_test::read_source(file);
  sv::cuda::CheckReport r = sv::cuda::check_kernel(file, source, {0, true});
  sv::check_on_gpu(file, source, r, {0, 300});
  REQUIRE(r.gpu.has_value());
  INFO(r.gpu->note);
  REQUIRE(r.gpu->ran);
  CHECK(r.gpu->matching < r.gpu->cases);
  CHECK(!r.gpu->mismatches.empty());
  CHECK(!r.gpu->timed);
  CHECK(r.verdict == "wrong");
}

TEST_CASE("gpu check: slide 14's kernel also runs in its own blocks of 1024 threads, where warps can race" *
          sv_test::skip_unless(have_nvcc, "no nvcc (PATH, /usr/local/cuda/bin or $SCANVIZ_NVCC)")) {
  const std::string file = "assets/kernels/pmpp_kogge_stone_incorrect.cu";
  const std::string source = sv_test::read_source(file);
  sv::cuda::CheckReport r = sv::cuda::check_kernel(file, source);
  CHECK(r.verdict == "wrong");  // the emulator's schedules show the race, and its unguarded load reads past n
  sv::check_on_gpu(file, source, r, {0, 300});
  REQUIRE(r.gpu.has_value());
  INFO(r.gpu->note);
  REQUIRE(r.gpu->ran);
  CHECK(r.gpu->own_block == 1024);
  CHECK(r.gpu->own_cases >= 8);
  CHECK(r.gpu->cases > r.gpu->own_cases);
  // Whether the warps raced on this run is the device's to say; the log shows which launches went wrong.
  std::int64_t own_wrong = 0;
  for (const sv::cuda::CheckCase& c : r.gpu->mismatches) own_wrong += c.detail.rfind("blocks of 1024 threads", 0) == 0;
  MESSAGE("slide 14's kernel on " << r.gpu->device << ": " << r.gpu->matching << " of " << r.gpu->cases << " launches right, "
                                  << own_wrong << " of the " << r.gpu->own_cases << " in blocks of 1024 wrong");
  CHECK(r.verdict == "wrong");  // the device's outputs leave the emulator's verdict as it was
}
