// Names of the trace's enumerations.
#include "trace/trace.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace sv {

namespace {
constexpr std::array<std::string_view, kPhaseCount> kPhaseNames = {
    "load", "stride", "reduction", "post-reduction", "up-sweep", "clear-root", "down-sweep", "span", "store",
    "scan-tiles", "tile-sums", "add-prefixes", "reduce-tiles", "scan-with-prefix", "single-pass",
    "warp-scan", "warp-sums", "fan", "rake-reduce", "rake-scan", "interval"};
}

std::int32_t TraceMeta::warp_width() const {
  const auto it = options.find("warp");
  if (it == options.end()) return 32;
  const std::string& v = it->second;
  std::int32_t w = 0;
  for (char c : v) {
    if (c < '0' || c > '9' || w > 32) return 32;  // the loader refuses such a file; never here
    w = w * 10 + (c - '0');
  }
  return w >= 1 && w <= 32 && (w & (w - 1)) == 0 ? w : 32;
}

std::string_view phase_name(Phase p) { return kPhaseNames.at(static_cast<std::size_t>(p)); }

std::optional<Phase> parse_phase_name(std::string_view s) {
  for (std::size_t i = 0; i < kPhaseNames.size(); ++i)
    if (kPhaseNames[i] == s) return static_cast<Phase>(i);
  return std::nullopt;
}

std::string phase_label(Phase p, std::int64_t param) {
  std::string label(phase_name(p));
  if (p == Phase::Stride) return "stride = " + std::to_string(param);
  if (p == Phase::Span) return "span = " + std::to_string(param);
  if (is_device_phase(p) || p == Phase::Fan) return param > 0 ? label + " level " + std::to_string(param) : label;
  if (p == Phase::WarpScan || p == Phase::WarpSums) return label + " +" + std::to_string(param);  // shuffle offset
  if (p == Phase::RakeReduce || p == Phase::RakeScan || p == Phase::Interval) return label + " " + std::to_string(param);
  if (param >= 0) label += " stride = " + std::to_string(param);
  return label;
}

std::string_view event_kind_name(EventKind k) {
  static constexpr std::array<std::string_view, kEventKindCount> names = {"read", "write", "op", "barrier", "fence"};
  return names.at(static_cast<std::size_t>(k));
}
std::string_view space_name(Space s) { return s == Space::Global ? "global" : "shared"; }
std::string_view outcome_name(Outcome o) {
  static constexpr std::array<std::string_view, kOutcomeCount> names = {"correct", "wrong", "deadlock"};
  return names.at(static_cast<std::size_t>(o));
}
std::string_view tile_event_kind_name(TileEventKind k) {
  static constexpr std::array<std::string_view, kTileEventKindCount> names = {
      "start", "publish", "inspect", "wait", "end", "record", "landed", "look-back", "held", "store"};
  return names.at(static_cast<std::size_t>(k));
}
std::string_view tile_flag_name(TileFlag f) {
  static constexpr std::array<std::string_view, 3> names = {"X", "A", "P"};
  return names.at(static_cast<std::size_t>(f));
}

namespace {
constexpr std::string_view kOwnKernelPrefix = "kernel:";
}

std::string own_kernel_algorithm(std::string_view kernel_name) { return std::string(kOwnKernelPrefix) + std::string(kernel_name); }

bool is_own_kernel_algorithm(std::string_view algorithm) {
  if (algorithm.substr(0, kOwnKernelPrefix.size()) != kOwnKernelPrefix || algorithm.size() == kOwnKernelPrefix.size() ||
      algorithm.size() > 256)
    return false;
  const std::string_view id = algorithm.substr(kOwnKernelPrefix.size());
  const auto word = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  return !(id[0] >= '0' && id[0] <= '9') && std::all_of(id.begin(), id.end(), word);
}

bool blocks_one_after_another(const TraceMeta& m) { return m.grid > 1 && is_own_kernel_algorithm(m.algorithm); }

std::vector<std::uint8_t> judged_heads(const TraceMeta& m) {
  const auto scan = m.options.find("scan");
  if (!is_own_kernel_algorithm(m.algorithm) || scan == m.options.end() || scan->second != kBlockSections || m.capacity < 1)
    return m.flags;
  std::vector<std::uint8_t> heads(static_cast<std::size_t>(m.n), 0);
  for (std::int64_t i = 0; i < m.n; i += m.capacity) heads[static_cast<std::size_t>(i)] = 1;
  return heads;
}

}  // namespace sv
