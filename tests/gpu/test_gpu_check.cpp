// `scanviz check --gpu` on a GPU: the kernels compiled by nvcc into the generated harness give the
// reference's outputs on the check's sizes and inputs, and are timed against CUB and a copy. Skips
// without a device (gpu_main.cpp) or without nvcc.
#include <doctest/doctest.h>

#include <future>
#include <vector>

#include "../own_kernel_helpers.hpp"
#include "../skips.hpp"
#include "check_gpu.hpp"
#include "gpu/executor.hpp"
#include "run/launch.hpp"

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

TEST_CASE("gpu check: whole student files, compiled as written and run as their launch says, give on the device what their own main gave" *
          sv_test::skip_unless(have_nvcc, "no nvcc (PATH, /usr/local/cuda/bin or $SCANVIZ_NVCC)")) {
  // What each file's own main printed on an H200 (tests/fixtures/whole_files/MANIFEST.md): right, wrong, or hangs.
  enum class Device { Right, Wrong, Hangs };
  struct File {
    const char* name;
    const char* launch;
    bool exclusive;
    Device device;
  };
  const std::vector<File> files = {
      {"pmpp_ch11_hierarchical_kogge_stone.cu", "hierarchical_scan(in, out, n)", false, Device::Right},
      {"cmu418_exclusive_scan_upsweep_downsweep.cu", "exclusive_scan(io, n)", true, Device::Right},
      {"kogge_stone_double_buffer_cpu_sums.cu", "gpu_scan(in, out, n)", false, Device::Right},
      {"single_pass_chained_scan.cu", "chained_scan<<<(n + 255) / 256, 256, 0>>>(in, out, zeros(1), zeros((n + 255) / 256 + 1), buf((n + 255) / 256 + 1), n)",
       false, Device::Right},
      {"blelloch_block_template_unpadded.cu", "blelloch_scan<512><<<1, 512, 0>>>(in, out, n)", true, Device::Right},
      {"chained_scan_reads_previous_block_no_flag.cu", "one_pass_scan<<<(n + 255) / 256, 256, 0>>>(in, out, n)", false, Device::Wrong},
      {"hierarchical_add_own_block_sum.cu", "scan3(in, out, n)", false, Device::Wrong},
      {"brent_kung_downsweep_no_barrier.cu", "brent_kung_scan<<<1, 512, 0>>>(in, out, n)", false, Device::Wrong},
      {"ks_exclusive_identity_helper.cu", "exclusive_scan<<<1, 256, 0>>>(in, out, n)", true, Device::Wrong},
      // A thread's own array, warp votes and a switch: the constructs the emulator reads as CUDA runs them.
      {"thread_coarsened_register_scan.cu", "coarsened_scan<<<1, 256, 0>>>(in, out, n)", false, Device::Right},
      {"warp_vote_skip_empty_warps.cu", "vote_scan<<<1, 1024, 0>>>(in, out, n)", false, Device::Right},
      {"switch_operator_missing_break.cu", "op_scan<<<1, 512, 0>>>(in, out, n, 0)", false, Device::Wrong},
      {"chained_scan_waits_on_own_flag.cu", "chained_scan<<<(n + 127) / 128, 128, 0>>>(in, out, zeros((n + 127) / 128), buf((n + 127) / 128), n)", false,
       Device::Hangs},
  };
  const sv::GpuStatus gpu = sv::probe_gpu();
  // Each is an nvcc run with CUB (tens of seconds): all at once, each in its own folder.
  std::vector<std::future<sv::cuda::CheckReport>> runs;
  for (const File& f : files)
    runs.push_back(std::async(std::launch::async, [f] {
      const std::string path = std::string("tests/fixtures/whole_files/") + f.name;
      const std::string source = sv_test::read_source(path);
      sv::cuda::CheckOptions o;
      o.launch = sv::parse_launch(f.launch);
      o.exclusive = f.exclusive;
      sv::cuda::CheckReport r = sv::cuda::check_kernel(path, source, o);
      sv::check_on_gpu(path, source, r, {std::int64_t{1} << 20, f.device == Device::Hangs ? 20 : 300});
      return r;
    }));
  for (std::size_t k = 0; k < files.size(); ++k) {
    const File& f = files[k];
    CAPTURE(f.name);
    const sv::cuda::CheckReport r = runs[k].get();
    REQUIRE(r.launch_said);
    REQUIRE(r.gpu.has_value());
    INFO(r.gpu->note);
    REQUIRE(r.gpu->ran);
    CHECK(r.gpu->device == gpu.name);
    CHECK(r.gpu->cases >= 4);
    switch (f.device) {
      case Device::Right:
        CHECK(r.gpu->matching == r.gpu->cases);
        CHECK(r.gpu->mismatches.empty());
        // A kernel's launch is timed; a host function's is not (its allocations would be timed with it).
        CHECK(r.gpu->timed == (std::string(f.launch).find("<<<") != std::string::npos));
        break;
      case Device::Wrong:
        CHECK(!r.gpu->mismatches.empty());
        CHECK(r.verdict == "wrong");
        CHECK(r.gpu->mismatches.front().detail.find("launched as ") == 0);
        break;
      case Device::Hangs:
        CHECK(r.gpu->note.find("ran past 20 s") != std::string::npos);
        CHECK(r.verdict == "wrong");
        break;
    }
  }
}
