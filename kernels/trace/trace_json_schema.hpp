// What the trace's JSON writer and reader share: the schema's fixed names and limits.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "trace/trace.hpp"

namespace sv::trace_json {

// An event's fields in version 2; version 1 has the first 13 (no "atomic"). A trace is written as
// version 1 unless one of its events is atomic, so traces older readers could read stay readable there.
inline constexpr std::array<std::string_view, 14> kEventFields = {
    "seq", "kind", "block", "thread", "warp", "buffer", "index", "value", "line", "time", "sm", "a", "b", "atomic"};
inline constexpr std::size_t kEventFieldsV1 = 13;
inline std::size_t event_field_count(int version) { return version == 1 ? kEventFieldsV1 : kEventFields.size(); }
inline constexpr std::array<std::string_view, 10> kTileEventFields = {
    "time", "kind", "tile", "target", "block", "sm", "pass", "flag", "value", "spins"};
inline constexpr std::array<std::string_view, 2> kExecutorKinds = {"emulator", "gpu"};
inline constexpr std::int64_t kMaxN = std::int64_t{1} << 31;
inline constexpr std::size_t kMaxBuffers = kNoBuffer;  // buffer numbers are uint8_t and 0xff means "none"
inline constexpr std::int32_t kMaxBlock = 1024;

// Names of an enumeration's values 0..count-1, comma separated, for "expected one of" messages.
template <class E, class NameFn>
std::string name_list(int count, NameFn name) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    if (i) out += ", ";
    out += name(static_cast<E>(i));
  }
  return out;
}

// Why a file operation failed, from errno, or the fallback when errno says nothing.
inline std::string errno_reason(int err, const char* fallback) {
  return err ? std::generic_category().message(err) : std::string(fallback);
}

}  // namespace sv::trace_json
