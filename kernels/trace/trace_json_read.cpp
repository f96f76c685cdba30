// JSON -> Trace, schema versions 1 to 3 (2: events carry `atomic`; 3: fence events): parsed with nlohmann::json, then every field checked; a
// TraceError names the first bad one by its path.
#include "trace/trace_json.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "algorithms.hpp"
#include "core/charconv.hpp"
#include "core/files.hpp"
#include "core/limits.hpp"
#include "core/values.hpp"
#include "trace/strict_json.hpp"
#include "trace/trace_json_schema.hpp"

namespace sv {

namespace {

using nlohmann::json;
using namespace trace_json;

// =================================================================================================
// Reading: paths and error messages
// =================================================================================================

// A short one-line description of a JSON value for an error message.
std::string describe(const json& j) {
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  std::string s = j.dump(-1, ' ', true, json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

std::string json_quoted(std::string_view s) { return describe(json(s)); }

// Where the reader is in the document, e.g. events[12].index. Built on the stack as the reader
// descends (each level points at its parent) and only turned into text for an error message.
class Path {
 public:
  Path() = default;
  Path at(std::string_view key) const { return Path(this, key, 0, false); }
  Path at(std::size_t index) const { return Path(this, {}, index, true); }

  std::string str() const {
    std::string out;
    append_to(out);
    return out.empty() ? "(top level)" : out;
  }

 private:
  Path(const Path* parent, std::string_view key, std::size_t index, bool is_index)
      : parent_(parent), key_(key), index_(index), is_index_(is_index) {}

  static bool plain_key(std::string_view k) {
    return !k.empty() && k.size() <= 64 && std::all_of(k.begin(), k.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
  }

  void append_to(std::string& out) const {
    if (!parent_) return;
    parent_->append_to(out);
    if (is_index_) {
      out += '[' + std::to_string(index_) + ']';
    } else if (plain_key(key_)) {
      if (!out.empty()) out += '.';
      out += key_;
    } else {
      out += '[' + json_quoted(key_) + ']';
    }
  }

  const Path* parent_ = nullptr;
  std::string_view key_;
  std::size_t index_ = 0;
  bool is_index_ = false;
};

[[noreturn]] void fail(const Path& p, const std::string& problem) { throw TraceError(p.str() + ": " + problem); }

// =================================================================================================
// Reading: typed fields
// =================================================================================================

// Checks that j is an object holding exactly these keys, and any of the optional ones.
void expect_object(const json& j, const Path& p, std::initializer_list<std::string_view> keys,
                   std::initializer_list<std::string_view> optional = {}) {
  if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
  for (std::string_view key : keys)
    if (j.find(key) == j.end()) fail(p.at(key), "missing");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end() &&
        std::find(optional.begin(), optional.end(), it.key()) == optional.end())
      fail(p.at(it.key()), "unknown field");
}

// A member expect_object has vouched for.
const json& member(const json& obj, std::string_view key) { return *obj.find(key); }

const json::array_t& read_array(const json& j, const Path& p) {
  if (!j.is_array()) fail(p, "expected an array, got " + describe(j));
  return j.get_ref<const json::array_t&>();
}

const json::array_t& read_array(const json& j, const Path& p, std::size_t size, const std::string& what) {
  const auto& a = read_array(j, p);
  if (a.size() != size)
    fail(p, "expected " + std::to_string(size) + " " + what + ", got " + std::to_string(a.size()));
  return a;
}

const std::string& read_string(const json& j, const Path& p) {
  if (!j.is_string()) fail(p, "expected a string, got " + describe(j));
  return j.get_ref<const std::string&>();
}

bool read_bool(const json& j, const Path& p) {
  if (!j.is_boolean()) fail(p, "expected true or false, got " + describe(j));
  return j.get<bool>();
}

// An integer in lo..hi that fits T. nlohmann keeps integers as int64 or uint64 (and larger ones as
// floating point, which is rejected here), so the range check is exact.
template <class T>
T read_int(const json& j, const Path& p, T lo = std::numeric_limits<T>::min(), T hi = std::numeric_limits<T>::max()) {
  if (!j.is_number_integer()) fail(p, "expected an integer, got " + describe(j));
  bool in_range = false;
  T v{};
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    in_range = std::cmp_greater_equal(u, lo) && std::cmp_less_equal(u, hi);
    if (in_range) v = static_cast<T>(u);
  } else {
    const auto s = j.get<std::int64_t>();
    in_range = std::cmp_greater_equal(s, lo) && std::cmp_less_equal(s, hi);
    if (in_range) v = static_cast<T>(s);
  }
  if (!in_range) fail(p, describe(j) + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return v;
}

// One of an enumeration's names, as name(E) writes them.
template <class E, class NameFn>
E read_enum(const json& j, const Path& p, int count, NameFn name) {
  const bool is_string = j.is_string();
  for (int i = 0; is_string && i < count; ++i)
    if (name(static_cast<E>(i)) == j.get_ref<const std::string&>()) return static_cast<E>(i);
  fail(p, "expected one of " + name_list<E>(count, name) + ", got " + describe(j));
}

// The float nearest to d, where d was parsed from the shortest text of a float. Converting the text
// to double and then to float rounds twice; when d lands exactly halfway between two floats, the
// second rounding can pick the wrong one (e.g. 7.038531e-26), so the float whose shortest text
// parses to d is taken.
std::optional<float> narrow_to_float(double d) {
  const double limit = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);  // halfway from FLT_MAX to 2^128
  if (!(std::fabs(d) < limit)) return std::nullopt;
  const float f = static_cast<float>(d);
  if (static_cast<double>(f) == d) return f;
  const float g = std::nextafter(f, d > static_cast<double>(f) ? std::numeric_limits<float>::infinity()
                                                                 : -std::numeric_limits<float>::infinity());
  if (!std::isfinite(g) || (static_cast<double>(f) + static_cast<double>(g)) / 2 != d) return f;
  const auto text_parses_to_d = [d](float x) {
    char buf[32];
    const auto end = sv::to_chars(buf, buf + sizeof buf, x).ptr;
    double back = 0;
    sv::from_chars(buf, end, back);
    return back == d;
  };
  if (!text_parses_to_d(f) && text_parses_to_d(g)) return g;
  return f;
}

// A float or double: a JSON number, or one of the strings "nan", "inf", "-inf".
template <class T>
T read_floating(const json& j, const Path& p) {
  constexpr bool is_float = std::is_same_v<T, float>;
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<T>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<T>::infinity();
    if (s == "-inf") return -std::numeric_limits<T>::infinity();
  } else if (j.is_number_unsigned()) {
    return static_cast<T>(j.get<std::uint64_t>());
  } else if (j.is_number_integer()) {
    return static_cast<T>(j.get<std::int64_t>());
  } else if (j.is_number_float()) {
    const double d = j.get<double>();
    if constexpr (is_float) {
      if (auto f = narrow_to_float(d)) return *f;
      fail(p, describe(j) + " is out of range for float");
    } else {
      if (std::isfinite(d)) return d;
      fail(p, describe(j) + " is out of range for double");
    }
  }
  fail(p, std::string("expected a ") + (is_float ? "float" : "double") +
              " (a number or \"nan\", \"inf\", \"-inf\"), got " + describe(j));
}

Payload read_value(const json& j, const Path& p, ValueType type) {
  switch (type) {
    case ValueType::I32: return Payload::of(read_int<std::int32_t>(j, p));
    case ValueType::I64: return Payload::of(read_int<std::int64_t>(j, p));
    case ValueType::F32: return Payload::of(read_floating<float>(j, p));
    case ValueType::F64: return Payload::of(read_floating<double>(j, p));
    case ValueType::Interval: {
      if (!j.is_string()) fail(p, "expected an interval (a string such as \"x0..x3\"), got " + describe(j));
      if (auto v = parse_value(ValueType::Interval, j.get_ref<const std::string&>())) return *v;
      fail(p, describe(j) + " is not a valid interval value");
    }
  }
  fail(p, "unknown value type");
}

std::vector<Payload> read_values(const json& j, const Path& p, ValueType type, std::size_t count,
                                 const std::string& what) {
  const auto& a = read_array(j, p, count, what);
  std::vector<Payload> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out.push_back(read_value(a[i], p.at(i), type));
  return out;
}

// =================================================================================================
// Reading: the sections
// =================================================================================================

Executor read_executor(const json& j, const Path& p) {
  expect_object(j, p, {"kind", "device", "schedule", "seed", "compute_capability", "sm_count", "driver_version"});
  Executor x;
  x.kind = read_string(member(j, "kind"), p.at("kind"));
  if (std::find(kExecutorKinds.begin(), kExecutorKinds.end(), x.kind) == kExecutorKinds.end())
    fail(p.at("kind"), "expected one of emulator, gpu, got " + json_quoted(x.kind));
  x.device = read_string(member(j, "device"), p.at("device"));
  x.schedule = read_string(member(j, "schedule"), p.at("schedule"));
  x.seed = read_int<std::uint64_t>(member(j, "seed"), p.at("seed"));
  x.compute_capability = read_string(member(j, "compute_capability"), p.at("compute_capability"));
  x.sm_count = read_int<std::int32_t>(member(j, "sm_count"), p.at("sm_count"), 0);
  x.driver_version = read_string(member(j, "driver_version"), p.at("driver_version"));
  return x;
}

// The counts that size what readers allocate (tiles, a block's cells) agree with one another and
// with n, which the input array holds: a trace cannot claim ten million tiles for eight elements.
// A kernel of your own may run several blocks, each scanning meta.capacity elements of n (and reads
// as one block when it ran one).
void check_shape(const TraceMeta& m, bool one_block, const Path& p) {
  constexpr std::int32_t kMaxBlockItems = 64;
  const bool own_grid = is_own_kernel_algorithm(m.algorithm) && m.grid > 1;
  const auto entry = m.options.find("entry");
  if (is_own_kernel_algorithm(m.algorithm) && entry != m.options.end() && entry->second == "host") {
    // A host function's launches: meta.grid counts the blocks of all of them, whatever n.
    if (m.capacity < 1 || m.capacity != std::int64_t{m.block} * m.items_per_thread || m.items_per_thread > kMaxBlockItems)
      fail(p.at("capacity"), std::to_string(m.capacity) + " is not meta.block x meta.items_per_thread, of at most " +
                                 std::to_string(kMaxBlockItems) + " items a thread");
    return;
  }
  if (one_block) {
    if (m.items_per_thread > kMaxBlockItems)
      fail(p.at("items_per_thread"), std::to_string(m.items_per_thread) + " is out of range (1.." +
                                         std::to_string(kMaxBlockItems) + " for a block-level scan)");
    const std::int64_t most = std::int64_t{m.block} * m.items_per_thread;
    if (m.capacity < (own_grid ? 1 : m.n) || m.capacity > most)
      fail(p.at("capacity"), std::to_string(m.capacity) + " is outside " + (own_grid ? "1" : "meta.n") + ".." + std::to_string(most) +
                                 " (meta.block x meta.items_per_thread)");
    const std::int64_t blocks = own_grid ? (m.n + m.capacity - 1) / m.capacity : 1;
    if (m.grid != blocks)
      fail(p.at("grid"), std::to_string(m.grid) + " is not " + std::to_string(blocks) +
                             (own_grid ? " (meta.n in blocks of meta.capacity)" : " (a block-level scan runs one block)"));
    return;
  }
  if (m.capacity != std::int64_t{m.block} * m.items_per_thread)
    fail(p.at("capacity"), std::to_string(m.capacity) + " is not meta.block x meta.items_per_thread (" +
                               std::to_string(std::int64_t{m.block} * m.items_per_thread) + ")");
  const std::int64_t tiles = (m.n + m.capacity - 1) / m.capacity;
  if (m.grid != tiles)
    fail(p.at("grid"), std::to_string(m.grid) + " is not " + std::to_string(tiles) + " (meta.n in tiles of meta.capacity)");
}

TraceMeta read_meta(const json& j, const Path& p) {
  expect_object(j, p, {"algorithm", "options", "n", "block", "items_per_thread", "capacity", "grid", "op", "type",
                       "exclusive", "input_seed", "executor", "input"},
                {"segment_flags", "application"});
  const auto field = [&](std::string_view key) -> const json& { return member(j, key); };
  TraceMeta m;
  m.algorithm = read_string(field("algorithm"), p.at("algorithm"));
  const AlgorithmInfo* block_algo = find_algorithm(m.algorithm);
  const bool device_algo = find_device_algorithm(m.algorithm) != nullptr;
  if (!block_algo && !device_algo && !is_own_kernel_algorithm(m.algorithm))
    fail(p.at("algorithm"), "unknown algorithm " + json_quoted(m.algorithm) +
                                " (scanviz algos lists them; a kernel of your own is kernel:NAME)");

  const Path options = p.at("options");
  if (!field("options").is_object()) fail(options, "expected an object, got " + describe(field("options")));
  for (auto it = field("options").begin(); it != field("options").end(); ++it)
    m.options.emplace(it.key(), read_string(it.value(), options.at(it.key())));
  if (const auto scan = m.options.find("scan"); scan != m.options.end() && scan->second != kBlockSections)
    fail(options.at("scan"), json_quoted(scan->second) + " is not \"" + std::string(kBlockSections) + "\" (each block's section scanned on its own)");
  if (const auto warp = m.options.find("warp"); warp != m.options.end()) {
    const std::string& v = warp->second;
    const bool ok = v == "1" || v == "2" || v == "4" || v == "8" || v == "16" || v == "32";
    if (!ok) fail(options.at("warp"), "'" + v + "' is not a warp width (a power of two from 1 to 32)");
  }

  m.n = read_int<std::int64_t>(field("n"), p.at("n"), 0, kMaxN);
  m.block = read_int<std::int32_t>(field("block"), p.at("block"), 1, kMaxBlock);
  m.items_per_thread = read_int<std::int32_t>(field("items_per_thread"), p.at("items_per_thread"), 1);
  m.capacity = read_int<std::int64_t>(field("capacity"), p.at("capacity"), 0);
  m.grid = read_int<std::int32_t>(field("grid"), p.at("grid"), m.n == 0 ? 0 : 1);
  m.op = read_enum<OpKind>(field("op"), p.at("op"), kOpKindCount, op_name);
  m.type = read_enum<ValueType>(field("type"), p.at("type"), 5, type_name);
  try {
    check_op_type(m.op, m.type);
  } catch (const std::invalid_argument& e) {
    fail(p.at("type"), e.what());
  }
  m.exclusive = read_bool(field("exclusive"), p.at("exclusive"));
  m.input_seed = read_int<std::uint64_t>(field("input_seed"), p.at("input_seed"));
  m.executor = read_executor(field("executor"), p.at("executor"));
  m.input = read_values(field("input"), p.at("input"), m.type, static_cast<std::size_t>(m.n), "values (meta.n)");
  check_shape(m, block_algo || is_own_kernel_algorithm(m.algorithm), p);  // n is now what the input holds
  try {
    check_op_values(m.op, m.type, m.input);
  } catch (const std::invalid_argument& e) {
    fail(p.at("input"), e.what());
  }
  if (j.contains("segment_flags")) {
    const auto& a = read_array(field("segment_flags"), p.at("segment_flags"), static_cast<std::size_t>(m.n),
                               "flags (meta.n)");
    for (std::size_t i = 0; i < a.size(); ++i)
      m.flags.push_back(static_cast<std::uint8_t>(read_int<int>(a[i], p.at("segment_flags").at(i), 0, 1)));
  }
  if (j.contains("application")) {
    const Path ap = p.at("application");
    const json& a = field("application");
    expect_object(a, ap, {"kind", "predicate", "values"});
    m.application.kind = read_string(member(a, "kind"), ap.at("kind"));
    if (m.application.kind != "compact" && m.application.kind != "allocate")
      fail(ap.at("kind"), "expected one of compact, allocate, got " + json_quoted(m.application.kind));
    m.application.predicate = read_string(member(a, "predicate"), ap.at("predicate"));
    const std::size_t count = m.application.kind == "compact" ? static_cast<std::size_t>(m.n) : 0;
    m.application.values = read_values(member(a, "values"), ap.at("values"), m.type, count, "values (meta.n)");
  }
  return m;
}

// A buffer holds at most max(meta.n, meta.capacity) cells: the data, its padded block, or the tile
// sums of fewer tiles.
std::vector<BufferInfo> read_buffers(const json& j, const Path& p, std::int64_t max_length) {
  const auto& a = read_array(j, p);
  if (a.size() > kMaxBuffers)
    fail(p, std::to_string(a.size()) + " buffers, at most " + std::to_string(kMaxBuffers) + " are allowed");
  std::vector<BufferInfo> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Path bp = p.at(i);
    expect_object(a[i], bp, {"name", "space", "length"});
    BufferInfo b;
    b.name = read_string(member(a[i], "name"), bp.at("name"));
    if (b.name.empty()) fail(bp.at("name"), "empty buffer name");
    for (const auto& earlier : out)
      if (earlier.name == b.name) fail(bp.at("name"), "duplicate buffer name " + json_quoted(b.name));
    b.space = read_enum<Space>(member(a[i], "space"), bp.at("space"), 2, space_name);
    b.length = read_int<std::int64_t>(member(a[i], "length"), bp.at("length"), 0, max_length);
    out.push_back(std::move(b));
  }
  return out;
}

void read_event_fields(const json& j, const Path& p, std::size_t count) {
  const auto& a = read_array(j, p, count, "field names");
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].is_string() || a[i].get_ref<const std::string&>() != kEventFields[i])
      fail(p.at(i), "expected \"" + std::string(kEventFields[i]) + "\", got " + describe(a[i]));
}

// What the event reader checks against.
struct EventContext {
  const TraceMeta& meta;
  const std::vector<BufferInfo>& buffers;
  const std::vector<Event>& earlier;  // events[0..seq)
  std::size_t fields = kEventFields.size();  // the version's: 13 in version 1 (no "atomic")
  int kinds = kEventKindCount;               // the version's: no fence before version 3
};

std::uint8_t read_buffer_number(const json& j, const Path& p, const EventContext& cx) {
  const auto b = read_int<std::int64_t>(j, p, 0);
  if (std::cmp_greater_equal(b, cx.buffers.size()))
    fail(p, std::to_string(b) + " is out of range (there are " + std::to_string(cx.buffers.size()) + " buffers)");
  return static_cast<std::uint8_t>(b);
}

std::int64_t read_cell_index(const json& j, const Path& p, const BufferInfo& buffer) {
  const auto i = read_int<std::int64_t>(j, p);
  if (i < 0 || i >= buffer.length)
    fail(p, std::to_string(i) + " is out of range for buffer " + json_quoted(buffer.name) + " (length " +
                std::to_string(buffer.length) + ")");
  return i;
}

// null, the seq of an earlier op event, or [buffer, index].
Origin read_origin(const json& j, const Path& p, std::uint64_t seq, const EventContext& cx) {
  if (j.is_null()) return Origin::none();
  if (j.is_number_integer()) {
    const auto op = read_int<std::int64_t>(j, p, 0);
    if (std::cmp_greater_equal(op, seq))
      fail(p, "op origin " + std::to_string(op) + " is not an earlier event (this is event " +
                  std::to_string(seq) + ")");
    const EventKind kind = cx.earlier[static_cast<std::size_t>(op)].kind;
    if (kind != EventKind::Op)
      fail(p, "op origin " + std::to_string(op) + " is a " + std::string(event_kind_name(kind)) + " event, not an op");
    return Origin::op(op);
  }
  if (j.is_array() && j.size() == 2) {
    const std::uint8_t buffer = read_buffer_number(j[0], p.at(std::size_t{0}), cx);
    return Origin::cell(buffer, read_cell_index(j[1], p.at(1), cx.buffers[buffer]));
  }
  fail(p, "expected null, the seq of an op event or [buffer, index], got " + describe(j));
}

Event read_event(const json& j, const Path& p, std::uint64_t seq, const EventContext& cx) {
  const auto& f = read_array(j, p, cx.fields, "fields (see event_fields)");
  const auto at = [&](std::size_t i) { return p.at(kEventFields[i]); };
  Event e;
  e.seq = read_int<std::uint64_t>(f[0], at(0));
  if (e.seq != seq) fail(at(0), std::to_string(e.seq) + " is not the event's position " + std::to_string(seq));
  e.kind = read_enum<EventKind>(f[1], at(1), cx.kinds, event_kind_name);
  e.block = read_int<std::uint32_t>(f[2], at(2));
  if (std::cmp_greater_equal(e.block, cx.meta.grid))
    fail(at(2), std::to_string(e.block) + " is out of range (meta.grid is " + std::to_string(cx.meta.grid) + ")");
  e.thread = read_int<std::uint32_t>(f[3], at(3));
  if (std::cmp_greater_equal(e.thread, cx.meta.block))
    fail(at(3), std::to_string(e.thread) + " is out of range (meta.block is " + std::to_string(cx.meta.block) + ")");
  const auto warp = read_int<std::uint32_t>(f[4], at(4));
  const auto expected_warp = e.thread / static_cast<std::uint32_t>(cx.meta.warp_width());
  if (warp != expected_warp)
    fail(at(4), std::to_string(warp) + " does not match thread " + std::to_string(e.thread) + " (expected " +
                    std::to_string(expected_warp) + ")");

  const bool has_cell = e.kind == EventKind::Read || e.kind == EventKind::Write;
  const auto expect_null = [&](std::size_t i) {
    if (!f[i].is_null())
      fail(at(i), std::string("expected null for ") + (e.kind == EventKind::Op ? "an " : "a ") +
                      std::string(event_kind_name(e.kind)) + " event, got " + describe(f[i]));
  };
  if (has_cell) {
    e.buffer = read_buffer_number(f[5], at(5), cx);
    e.index = read_cell_index(f[6], at(6), cx.buffers[e.buffer]);
  } else {
    expect_null(5);
    expect_null(6);
  }
  if (e.kind == EventKind::Barrier || e.kind == EventKind::Fence) expect_null(7);
  else e.value = read_value(f[7], at(7), cx.meta.type);

  e.line = read_int<std::uint32_t>(f[8], at(8));
  e.time = read_int<std::uint64_t>(f[9], at(9));
  e.sm = read_int<std::uint16_t>(f[10], at(10));
  e.a = read_origin(f[11], at(11), seq, cx);
  e.b = read_origin(f[12], at(12), seq, cx);
  if (cx.fields > 13) {
    e.atomic = read_bool(f[13], at(13));
    if (e.atomic && e.kind != EventKind::Write)
      fail(at(13), std::string("only a write is atomic (an atomic read-modify-write), not a ") + std::string(event_kind_name(e.kind)) + " event");
  }
  return e;
}

std::vector<Event> read_events(const json& j, const Path& p, const TraceMeta& meta,
                               const std::vector<BufferInfo>& buffers, int version) {
  const auto& a = read_array(j, p);
  std::vector<Event> out;
  out.reserve(a.size());
  const EventContext cx{meta, buffers, out, event_field_count(version), version >= Trace::kVersion ? kEventKindCount : kEventKindCount - 1};
  for (std::size_t i = 0; i < a.size(); ++i) out.push_back(read_event(a[i], p.at(i), i, cx));
  return out;
}

std::vector<Step> read_steps(const json& j, const Path& p, std::size_t event_count) {
  const auto& a = read_array(j, p);
  std::vector<Step> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Path sp = p.at(i);
    expect_object(a[i], sp, {"label", "phase", "param", "line", "first_event", "end_event"});
    read_string(member(a[i], "label"), sp.at("label"));  // written for people; the phase and param say it
    Step s;
    s.phase = read_enum<Phase>(member(a[i], "phase"), sp.at("phase"), kPhaseCount, phase_name);
    s.param = read_int<std::int64_t>(member(a[i], "param"), sp.at("param"), -1);
    s.line = read_int<std::uint32_t>(member(a[i], "line"), sp.at("line"));
    s.first_event = read_int<std::uint64_t>(member(a[i], "first_event"), sp.at("first_event"));
    s.end_event = read_int<std::uint64_t>(member(a[i], "end_event"), sp.at("end_event"));
    if (s.end_event > event_count)
      fail(sp.at("end_event"), std::to_string(s.end_event) + " is past the end of the events (there are " +
                                   std::to_string(event_count) + ")");
    if (s.first_event > s.end_event)
      fail(sp.at("first_event"), std::to_string(s.first_event) + " is after end_event " + std::to_string(s.end_event));
    if (!out.empty() && s.first_event < out.back().end_event)
      fail(sp.at("first_event"), std::to_string(s.first_event) + " is before the end of the previous step (" +
                                     std::to_string(out.back().end_event) + ")");
    out.push_back(s);
  }
  return out;
}

std::vector<std::vector<BufferSnapshot>> read_snapshots(const json& j, const Path& p, ValueType type,
                                                        const std::vector<BufferInfo>& buffers,
                                                        std::size_t step_count) {
  const auto& steps = read_array(j, p, step_count, "snapshots (one per step)");
  std::vector<std::vector<BufferSnapshot>> out(steps.size());
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Path kp = p.at(k);
    const auto& per_buffer = read_array(steps[k], kp, buffers.size(), "buffers");
    out[k].resize(buffers.size());
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      const Path bp = kp.at(b);
      const auto& cells = read_array(per_buffer[b], bp);
      if (std::cmp_not_equal(cells.size(), buffers[b].length))
        fail(bp, "expected " + std::to_string(buffers[b].length) + " values (the length of buffer " +
                     json_quoted(buffers[b].name) + "), got " + std::to_string(cells.size()));
      BufferSnapshot& s = out[k][b];
      s.values.resize(cells.size());
      s.defined.resize(cells.size());
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].is_null()) continue;
        s.values[i] = read_value(cells[i], bp.at(i), type);
        s.defined[i] = 1;
      }
    }
  }
  return out;
}

TraceResult read_result(const json& j, const Path& p, const TraceMeta& meta) {
  const bool deadlock = j.is_object() && j.find("outcome") != j.end() && j.find("outcome")->is_string() &&
                        j.find("outcome")->get_ref<const std::string&>() == outcome_name(Outcome::Deadlock);
  if (deadlock) expect_object(j, p, {"output", "reference", "outcome", "waiting"});
  else expect_object(j, p, {"output", "reference", "outcome"});
  const auto n = static_cast<std::size_t>(meta.n);
  TraceResult r;
  r.output = read_values(member(j, "output"), p.at("output"), meta.type, n, "values (meta.n)");
  r.reference = read_values(member(j, "reference"), p.at("reference"), meta.type, n, "values (meta.n)");
  r.outcome = read_enum<Outcome>(member(j, "outcome"), p.at("outcome"), kOutcomeCount, outcome_name);
  if (deadlock) {
    const auto& w = read_array(member(j, "waiting"), p.at("waiting"));
    for (std::size_t i = 0; i < w.size(); ++i)
      r.waiting.push_back(read_int<std::int64_t>(w[i], p.at("waiting").at(i), 0, std::max<std::int64_t>(meta.grid - 1, 0)));
  }
  return r;
}

// The tile-level trace: each event an array in kTileEventFields order.
std::vector<TileEvent> read_tile_events(const json& fields, const json& j, const Path& fp, const Path& p,
                                        const TraceMeta& meta, std::size_t step_count) {
  const auto& names = read_array(fields, fp, kTileEventFields.size(), "field names");
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!names[i].is_string() || names[i].get_ref<const std::string&>() != kTileEventFields[i])
      fail(fp.at(i), "expected " + json_quoted(kTileEventFields[i]) + ", got " + describe(names[i]));
  const auto& a = read_array(j, p);
  std::vector<TileEvent> out;
  out.reserve(a.size());
  const std::int64_t last_tile = std::max<std::int64_t>(meta.grid - 1, 0);
  for (std::size_t k = 0; k < a.size(); ++k) {
    const Path ep = p.at(k);
    const auto& f = read_array(a[k], ep, kTileEventFields.size(), "fields (see tile_event_fields)");
    const auto at = [&](std::size_t i) { return ep.at(kTileEventFields[i]); };
    TileEvent e;
    e.time = read_int<std::uint64_t>(f[0], at(0));
    e.kind = read_enum<TileEventKind>(f[1], at(1), kTileEventKindCount, tile_event_kind_name);
    e.tile = read_int<std::int64_t>(f[2], at(2), 0, last_tile);
    if (tile_event_has_target(e.kind)) e.target = read_int<std::int64_t>(f[3], at(3), 0, e.tile);
    else if (!f[3].is_null()) fail(at(3), "expected null for a " + std::string(tile_event_kind_name(e.kind)) + " event");
    e.block = read_int<std::uint32_t>(f[4], at(4));
    e.sm = read_int<std::uint16_t>(f[5], at(5));
    e.pass = read_int<std::uint16_t>(f[6], at(6));
    if (e.pass >= step_count) fail(at(6), std::to_string(e.pass) + " is not a step (there are " + std::to_string(step_count) + ")");
    e.flag = read_enum<TileFlag>(f[7], at(7), 3, tile_flag_name);
    const bool has_value = tile_event_has_value(e.kind);
    if (has_value) e.value = read_value(f[8], at(8), meta.type);
    else if (!f[8].is_null()) fail(at(8), "expected null for a " + std::string(tile_event_kind_name(e.kind)) + " event");
    e.spins = read_int<std::uint32_t>(f[9], at(9));
    out.push_back(e);
  }
  return out;
}

json parse_json(const std::string& text) {
  try {
    return parse_strict_json(text, kMaxJsonDepth);
  } catch (const StrictJsonError& e) {
    throw TraceError(e.what());
  } catch (const json::parse_error& e) {
    const std::size_t offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::string_view before(text.data(), offset);
    const auto line = 1 + std::count(before.begin(), before.end(), '\n');
    const std::size_t line_start = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    throw TraceError("truncated or malformed JSON at byte " + std::to_string(e.byte) + " (line " +
                     std::to_string(line) + ", column " + std::to_string(offset - line_start + 1) + ")");
  } catch (const json::exception& e) {
    // e.g. out_of_range.406 for a number too large for a double: "number overflow parsing '1e999'"
    std::string what = e.what();
    if (auto close = what.find("] "); close != std::string::npos) what.erase(0, close + 2);
    if (what.size() > 100) what = what.substr(0, 97) + "...";
    throw TraceError("malformed JSON: " + what);
  }
}

}  // namespace

Trace trace_from_json(const std::string& text) {
  const json root = parse_json(text);
  const Path top;
  if (!root.is_object()) fail(top, "expected a JSON object, got " + describe(root));

  // Format and version first, so that another file or a newer trace is named as such.
  for (std::string_view key : {"format", "version"})
    if (root.find(key) == root.end()) fail(top.at(key), "missing");
  const json& format = member(root, "format");
  if (!format.is_string() || format.get_ref<const std::string&>() != Trace::kFormat)
    fail(top.at("format"), "expected \"" + std::string(Trace::kFormat) + "\", got " + describe(format));
  const auto version = read_int<std::int64_t>(member(root, "version"), top.at("version"));
  if (version < Trace::kFirstVersion || version > Trace::kVersion)
    fail(top.at("version"), "unsupported version " + std::to_string(version) + " (this scanviz reads versions " +
                                std::to_string(Trace::kFirstVersion) + " to " + std::to_string(Trace::kVersion) + ")");

  const bool tiles = root.find("tile_events") != root.end() || root.find("tile_event_fields") != root.end();
  if (tiles)
    expect_object(root, top, {"format", "version", "meta", "buffers", "steps", "event_fields", "events", "snapshots",
                              "tile_event_fields", "tile_events", "result"});
  else
    expect_object(root, top,
                  {"format", "version", "meta", "buffers", "steps", "event_fields", "events", "snapshots", "result"});
  Trace t;
  t.meta = read_meta(member(root, "meta"), top.at("meta"));
  t.buffers = read_buffers(member(root, "buffers"), top.at("buffers"), std::max(t.meta.n, t.meta.capacity));
  const int v = static_cast<int>(version);
  read_event_fields(member(root, "event_fields"), top.at("event_fields"), event_field_count(v));
  t.events = read_events(member(root, "events"), top.at("events"), t.meta, t.buffers, v);
  t.steps = read_steps(member(root, "steps"), top.at("steps"), t.events.size());
  t.snapshots = read_snapshots(member(root, "snapshots"), top.at("snapshots"), t.meta.type, t.buffers, t.steps.size());
  if (tiles)
    t.tile_events = read_tile_events(member(root, "tile_event_fields"), member(root, "tile_events"),
                                     top.at("tile_event_fields"), top.at("tile_events"), t.meta, t.steps.size());
  t.result = read_result(member(root, "result"), top.at("result"), t.meta);
  return t;
}

Trace load_trace(const std::filesystem::path& path) {
  const std::string name = is_standard_stream(path) ? "standard input" : path.string();
  std::string text;
  try {
    text = read_whole_file(path, kMaxTraceFileBytes, "a trace");
  } catch (const std::runtime_error& e) {
    throw TraceError(name + ": " + e.what());
  }
  try {
    return trace_from_json(text);
  } catch (const TraceError& e) {
    throw TraceError(name + ": " + e.what());
  }
}

}  // namespace sv
