// What scanviz reads and writes at most: every input's size, a trace's contents and a picture's
// cells. docs/cli.md states them; a refusal names the limit and the option that changes the size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sv {

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Files and streams read whole (traces, bench tables, --input @FILE, standard input). A trace's
// reader takes about nine times its text while it checks it (docs/performance.md).
inline constexpr std::uint64_t kMaxTraceFileBytes = 256 * kMiB;
inline constexpr std::uint64_t kMaxBenchFileBytes = 16 * kMiB;
inline constexpr std::uint64_t kMaxInputListBytes = 64 * kMiB;

// JSON nests no deeper than this (a trace nests 4 levels, a bench table 3); deeper is refused while
// parsing, before an unclosed '[' a byte can take gigabytes.
inline constexpr std::size_t kMaxJsonDepth = 16;

// A recorded device-wide trace holds every global buffer after every launch (snapshot cells, 25
// bytes each in memory) and its tiles' events: at most this many of the two together, counted
// before the run starts (device/trace_plan.hpp), and at most kMaxTileEvents tile events as it runs.
inline constexpr std::int64_t kMaxTraceCells = std::int64_t{1} << 24;
inline constexpr std::size_t kMaxTileEvents = std::size_t{1} << 22;

// An SVG diagram draws every cell of every buffer (about 800 bytes each with its arrows): at most
// this many cells.
inline constexpr std::uint64_t kMaxSvgCells = std::uint64_t{1} << 16;

// "256 MiB", "1.5 MiB", "512 bytes".
inline std::string size_text(std::uint64_t bytes) {
  if (bytes < kMiB) return std::to_string(bytes) + " bytes";
  const std::uint64_t tenths = bytes * 10 / kMiB;
  return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " MiB";
}

}  // namespace sv
