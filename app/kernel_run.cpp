// A kernel of the user's own as a run (kernel_run.hpp).
#include "kernel_run.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cuda_subset/lexer.hpp"

namespace sv {

std::string read_kernel_source(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw std::invalid_argument(path + " is a directory, not a kernel source");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read the kernel " + path);
  std::string text(cuda::kMaxSourceBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > cuda::kMaxSourceBytes)
    throw std::invalid_argument(path + ": more than " + std::to_string(cuda::kMaxSourceBytes) + " bytes: a kernel this long is refused");
  return text;
}

cuda::IncludeReader kernel_include_reader(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  return [folder](const std::string& name, const std::string&) -> std::optional<std::string> {
    const std::filesystem::path file = folder / name;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    return read_kernel_source(file.string());
  };
}

std::string kernel_refusal_line(const KernelRefusal& no) {
  return "--kernel with --" + no.key + (no.value.empty() ? "" : " " + no.value) + ": " + no.why;
}

std::string kernel_fault_line(const EmulationError& e, const std::string& file) {
  const std::string what = e.what();
  if (what.rfind(file + ":", 0) == 0 || e.line == 0) return what;
  return file + ":" + std::to_string(e.line) + ":1: error: " + what;
}

}  // namespace sv
