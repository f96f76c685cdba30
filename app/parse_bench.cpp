// The front end's speed on a file of the user's own: preprocessing and lexing, then the whole parse
// (preprocessing included), each the median of 51 runs after 5 warm-up runs, natively; the web build
// runs the same file under Node (docs/performance.md).
//   parse_bench FILE.cu [KERNEL]   KERNEL: the entry when the file has several kernels
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_subset/parser.hpp"

namespace {

template <class F>
double median_us(F&& f) {
  for (int i = 0; i < 5; ++i) f();
  std::vector<double> us;
  for (int i = 0; i < 51; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(us.begin(), us.begin() + 25, us.end());
  return us[25];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parse_bench FILE.cu [KERNEL]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "parse_bench: cannot read %s\n", argv[1]);
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string source = text.str(), entry = argc > 2 ? argv[2] : "";
  try {
    const std::size_t lines = static_cast<std::size_t>(std::count(source.begin(), source.end(), '\n'));
    const std::size_t tokens = sv::cuda::lex(source, argv[1]).tokens.size();
    const double lex_us = median_us([&] { (void)sv::cuda::lex(source, argv[1]); });
    const double parse_us = median_us([&] { (void)sv::cuda::parse_kernel(source, argv[1], {}, entry); });
    std::printf("%s: %zu lines, %zu tokens after preprocessing; preprocess and lex %.0f us, parse (with them) %.0f us (medians of 51)\n",
                argv[1], lines, tokens, lex_us, parse_us);
  } catch (const sv::cuda::KernelError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
