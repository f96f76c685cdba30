// Trace -> JSON, schema version 1, or 2 when an event is atomic: text streamed through a chunked buffer. The writer is the
// reference for the layout; trace_json_read.cpp reads it back.
#include "trace/trace_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <ostream>
#include <streambuf>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/files.hpp"
#include "core/limits.hpp"
#include "core/values.hpp"
#include "trace/trace_json_schema.hpp"

namespace sv {

namespace {

using nlohmann::json;
using namespace trace_json;

// =================================================================================================
// Writing
// =================================================================================================

// Length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if (lead >= 0xc2 && lead <= 0xdf) len = 2, cp = lead & 0x1fu;
  else if (lead >= 0xe0 && lead <= 0xef) len = 3, cp = lead & 0x0fu;
  else if (lead >= 0xf0 && lead <= 0xf4) len = 4, cp = lead & 0x07u;
  else return 0;
  if (len > s.size() - i) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xc0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3fu);
  }
  static constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

// JSON text built in a fixed buffer that is handed to the stream whenever it fills up.
class JsonOut {
 public:
  explicit JsonOut(std::ostream& out) : out_(out), buf_(kSize), pos_(buf_.data()), end_(pos_ + kSize) {}

  void raw(char c) {
    room(1);
    *pos_++ = c;
  }
  void raw(std::string_view s) {
    if (s.size() > kSize) {
      flush();
      out_.write(s.data(), static_cast<std::streamsize>(s.size()));
      return;
    }
    room(s.size());
    std::memcpy(pos_, s.data(), s.size());
    pos_ += s.size();
  }

  template <class T>
  void integer(T v) {
    room(kNumberRoom);
    pos_ = std::to_chars(pos_, pos_ + kNumberRoom, v).ptr;
  }

  void boolean(bool v) { raw(v ? "true" : "false"); }

  void newline(int indent) {
    static constexpr std::string_view kSpaces = "        ";
    raw('\n');
    raw(kSpaces.substr(0, static_cast<std::size_t>(indent)));
  }

  // A quoted string. Bytes that are not valid UTF-8 become U+FFFD (written as UTF-8, not as an
  // escape, so that a reloaded trace saves to the same text).
  void string(std::string_view s) {
    raw('"');
    std::size_t i = 0;
    while (i < s.size()) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
        std::size_t j = i + 1;
        while (j < s.size()) {
          const auto d = static_cast<unsigned char>(s[j]);
          if (d < 0x20 || d >= 0x80 || d == '"' || d == '\\') break;
          ++j;
        }
        raw(s.substr(i, j - i));
        i = j;
      } else if (c < 0x80) {
        escape(static_cast<char>(c));
        ++i;
      } else if (std::size_t len = utf8_sequence_length(s, i)) {
        raw(s.substr(i, len));
        i += len;
      } else {
        raw("\xef\xbf\xbd");
        ++i;
      }
    }
    raw('"');
  }

  // A quoted name from the program's own tables (kinds, phases, keys): plain ASCII, no escaping.
  void name(std::string_view s) {
    raw('"');
    raw(s);
    raw('"');
  }

  void key(std::string_view k) {
    name(k);
    raw(": ");
  }

  // A scan value in the text format_value gives it: integers as JSON numbers, floating point as
  // numbers except the strings "nan", "inf", "-inf", intervals as strings.
  void value(ValueType type, const Payload& v) {
    const std::string text = format_value(type, v);
    switch (type) {
      case ValueType::I32:
      case ValueType::I64: raw(text); return;
      case ValueType::F32:
      case ValueType::F64:
        if (text.back() == 'n' || text.back() == 'f') name(text);  // nan, inf, -inf: numbers end in a digit
        else if (text == "-0") raw("-0.0");  // JSON -0 reads back as the integer 0, losing the sign
        else raw(text);
        return;
      case ValueType::Interval: name(text); return;  // ID, x3, x0..x3, !x0..x1,x3: nothing to escape
    }
    string(text);
  }

  // Out of line, so that room()'s test inlines into every write.
  [[gnu::noinline]] void flush() {
    out_.write(buf_.data(), pos_ - buf_.data());
    pos_ = buf_.data();
  }

 private:
  static constexpr std::size_t kSize = std::size_t{1} << 16;
  static constexpr std::size_t kNumberRoom = 24;  // the longest integer, -9223372036854775808, is 20

  void room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - pos_) < n) [[unlikely]] flush();
  }

  void escape(char c) {
    switch (c) {
      case '"': raw("\\\""); return;
      case '\\': raw("\\\\"); return;
      case '\n': raw("\\n"); return;
      case '\r': raw("\\r"); return;
      case '\t': raw("\\t"); return;
      case '\b': raw("\\b"); return;
      case '\f': raw("\\f"); return;
      default: break;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    const char esc[] = {'\\', 'u', '0', '0', kHex[u >> 4], kHex[u & 15]};
    raw(std::string_view(esc, sizeof esc));
  }

  std::ostream& out_;
  std::vector<char> buf_;
  char* pos_;
  char* end_;
};

// An object's members, separated and laid out as asked: {"a": 1, "b": 2} on one line (indent < 0)
// or one member a line, indented by indent + 2 with the closing brace at indent.
class Members {
 public:
  explicit Members(JsonOut& o, int indent = -1) : o_(o), indent_(indent) { o_.raw('{'); }

  // Starts the member `key`; write its value to the returned JsonOut.
  JsonOut& operator[](std::string_view key) {
    if (!first_) o_.raw(indent_ < 0 ? ", " : ",");
    if (indent_ >= 0) o_.newline(indent_ + 2);
    first_ = false;
    o_.key(key);
    return o_;
  }

  void end() {
    if (indent_ >= 0) o_.newline(indent_);
    o_.raw('}');
  }

 private:
  JsonOut& o_;
  int indent_;
  bool first_ = true;
};

// "[", then the items one a line at indent 4, then "]" at indent 2 ("[]" when empty).
template <class Range, class WriteItem>
void write_lines(JsonOut& o, const Range& items, WriteItem write_item) {
  o.raw('[');
  bool first = true;
  for (const auto& item : items) {
    if (!first) o.raw(',');
    o.newline(4);
    write_item(item);
    first = false;
  }
  if (!first) o.newline(2);
  o.raw(']');
}

void write_values(JsonOut& o, ValueType type, const std::vector<Payload>& values) {
  o.raw('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) o.raw(',');
    o.value(type, values[i]);
  }
  o.raw(']');
}

void write_meta(JsonOut& o, const TraceMeta& m) {
  Members f(o, 2);
  f["algorithm"].string(m.algorithm);
  f["options"].raw('{');
  for (auto it = m.options.begin(); it != m.options.end(); ++it) {
    if (it != m.options.begin()) o.raw(", ");
    o.string(it->first);  // a user's text, so escaped, unlike the schema's own keys
    o.raw(": ");
    o.string(it->second);
  }
  o.raw('}');
  f["n"].integer(m.n);
  f["block"].integer(m.block);
  f["items_per_thread"].integer(m.items_per_thread);
  f["capacity"].integer(m.capacity);
  f["grid"].integer(m.grid);
  f["op"].name(op_name(m.op));
  f["type"].name(type_name(m.type));
  f["exclusive"].boolean(m.exclusive);
  f["input_seed"].integer(m.input_seed);
  Members x(f["executor"]);
  x["kind"].string(m.executor.kind);
  x["device"].string(m.executor.device);
  x["schedule"].string(m.executor.schedule);
  x["seed"].integer(m.executor.seed);
  x["compute_capability"].string(m.executor.compute_capability);
  x["sm_count"].integer(m.executor.sm_count);
  x["driver_version"].string(m.executor.driver_version);
  x.end();
  write_values(f["input"], m.type, m.input);
  if (!m.flags.empty()) {
    f["segment_flags"].raw('[');
    for (std::size_t i = 0; i < m.flags.size(); ++i) {
      if (i) o.raw(',');
      o.raw(m.flags[i] ? '1' : '0');
    }
    o.raw(']');
  }
  if (!m.application.kind.empty()) {
    Members a(f["application"]);
    a["kind"].string(m.application.kind);
    a["predicate"].string(m.application.predicate);
    write_values(a["values"], m.type, m.application.values);
    a.end();
  }
  f.end();
}

void write_buffer(JsonOut& o, const BufferInfo& b) {
  Members f(o);
  f["name"].string(b.name);
  f["space"].name(space_name(b.space));
  f["length"].integer(b.length);
  f.end();
}

void write_step(JsonOut& o, const Step& s) {
  Members f(o);
  f["label"].string(s.label());
  f["phase"].name(phase_name(s.phase));
  f["param"].integer(s.param);
  f["line"].integer(s.line);
  f["first_event"].integer(s.first_event);
  f["end_event"].integer(s.end_event);
  f.end();
}

void write_origin(JsonOut& o, const Origin& origin) {
  switch (origin.kind) {
    case Origin::None: break;
    case Origin::OpResult: o.integer(origin.index); return;
    case Origin::Cell:
      o.raw('[');
      o.integer(unsigned{origin.buffer});
      o.raw(',');
      o.integer(origin.index);
      o.raw(']');
      return;
  }
  o.raw("null");
}

// One event as an array in kEventFields order. Op and barrier events have no cell (null buffer and
// index) and barriers no value. warp: thread / the trace's warp width. Version 2 adds `atomic`, version 3 fence events.
void write_event(JsonOut& o, ValueType type, std::uint32_t warp_width, bool with_atomic, const Event& e) {
  const bool has_cell = e.kind == EventKind::Read || e.kind == EventKind::Write;
  o.raw('[');
  o.integer(e.seq);
  o.raw(',');
  o.name(event_kind_name(e.kind));
  o.raw(',');
  o.integer(e.block);
  o.raw(',');
  o.integer(e.thread);
  o.raw(',');
  o.integer(e.thread / warp_width);
  o.raw(',');
  if (has_cell) o.integer(unsigned{e.buffer});
  else o.raw("null");
  o.raw(',');
  if (has_cell) o.integer(e.index);
  else o.raw("null");
  o.raw(',');
  if (e.kind == EventKind::Barrier || e.kind == EventKind::Fence) o.raw("null");
  else o.value(type, e.value);
  o.raw(',');
  o.integer(e.line);
  o.raw(',');
  o.integer(e.time);
  o.raw(',');
  o.integer(e.sm);
  o.raw(',');
  write_origin(o, e.a);
  o.raw(',');
  write_origin(o, e.b);
  if (with_atomic) o.raw(e.atomic ? ",true" : ",false");
  o.raw(']');
}

// One tile event as an array in kTileEventFields order; start and end have no target (null), and
// only the events tile_event_has_value names (publish, inspect, record) carry a value.
void write_tile_event(JsonOut& o, ValueType type, const TileEvent& e) {
  o.raw('[');
  o.integer(e.time);
  o.raw(',');
  o.name(tile_event_kind_name(e.kind));
  o.raw(',');
  o.integer(e.tile);
  o.raw(',');
  if (e.target >= 0) o.integer(e.target);
  else o.raw("null");
  o.raw(',');
  o.integer(e.block);
  o.raw(',');
  o.integer(e.sm);
  o.raw(',');
  o.integer(e.pass);
  o.raw(',');
  o.name(tile_flag_name(e.flag));
  o.raw(',');
  if (tile_event_has_value(e.kind)) o.value(type, e.value);
  else o.raw("null");
  o.raw(',');
  o.integer(e.spins);
  o.raw(']');
}

// One step's snapshot: per buffer its cells, null where nothing was written yet (a cell without a
// defined flag counts as defined).
void write_snapshot(JsonOut& o, ValueType type, const std::vector<BufferSnapshot>& buffers) {
  o.raw('[');
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    const BufferSnapshot& s = buffers[b];
    o.raw(b ? ",[" : "[");
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      if (i) o.raw(',');
      if (i < s.defined.size() && !s.defined[i]) o.raw("null");
      else o.value(type, s.values[i]);
    }
    o.raw(']');
  }
  o.raw(']');
}

void write_result(JsonOut& o, ValueType type, const TraceResult& r) {
  Members f(o, 2);
  write_values(f["output"], type, r.output);
  write_values(f["reference"], type, r.reference);
  f["outcome"].name(outcome_name(r.outcome));
  if (r.outcome == Outcome::Deadlock) {
    f["waiting"].raw('[');
    for (std::size_t i = 0; i < r.waiting.size(); ++i) {
      if (i) o.raw(',');
      o.integer(r.waiting[i]);
    }
    o.raw(']');
  }
  f.end();
}


}  // namespace

void write_trace_json(std::ostream& out, const Trace& trace) {
  const ValueType type = trace.meta.type;
  JsonOut o(out);
  Members top(o, 0);
  top["format"].name(Trace::kFormat);
  // The oldest version that holds the events, so that traces older readers could read stay readable there.
  const bool fences = std::any_of(trace.events.begin(), trace.events.end(), [](const Event& e) { return e.kind == EventKind::Fence; });
  const bool atomics = fences || std::any_of(trace.events.begin(), trace.events.end(), [](const Event& e) { return e.atomic; });
  const int version = fences ? Trace::kVersion : atomics ? Trace::kAtomicVersion : Trace::kFirstVersion;
  top["version"].integer(version);
  write_meta(top["meta"], trace.meta);
  write_lines(top["buffers"], trace.buffers, [&](const BufferInfo& b) { write_buffer(o, b); });
  write_lines(top["steps"], trace.steps, [&](const Step& s) { write_step(o, s); });
  top["event_fields"].raw('[');
  for (std::size_t i = 0; i < event_field_count(version); ++i) {
    if (i) o.raw(", ");
    o.name(kEventFields[i]);
  }
  o.raw(']');
  write_lines(top["events"], trace.events, [&, warp_width = static_cast<std::uint32_t>(trace.meta.warp_width())](const Event& e) {
    write_event(o, type, warp_width, atomics, e);
  });
  write_lines(top["snapshots"], trace.snapshots, [&](const auto& step) { write_snapshot(o, type, step); });
  if (!trace.tile_events.empty()) {  // device-wide scans only
    top["tile_event_fields"].raw('[');
    for (std::size_t i = 0; i < kTileEventFields.size(); ++i) {
      if (i) o.raw(", ");
      o.name(kTileEventFields[i]);
    }
    o.raw(']');
    write_lines(top["tile_events"], trace.tile_events, [&](const TileEvent& e) { write_tile_event(o, type, e); });
  }
  write_result(top["result"], type, trace.result);
  top.end();
  o.raw('\n');
  o.flush();
}

namespace {

// Appends what the writer streams to a string sized for the trace up front: growing an
// ostringstream's buffer copied the text over and over, a fifth of `scanviz trace` at n = 1024.
class StringSink : public std::streambuf {
 public:
  explicit StringSink(std::string& text) : text_(text) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    text_.append(s, static_cast<std::size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) text_.push_back(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }

 private:
  std::string& text_;
};

// More than an event line (about 60 bytes with 4-byte values) and a snapshot cell take: pages
// reserved and never written cost nothing.
std::size_t json_size_hint(const Trace& trace) {
  std::size_t cells = trace.meta.input.size() * 4;
  for (const auto& step : trace.snapshots)
    for (const BufferSnapshot& b : step) cells += b.values.size();
  return 96 * (trace.events.size() + trace.tile_events.size()) + 24 * cells + 4096;
}

}  // namespace

std::string trace_to_json(const Trace& trace) {
  std::string text;
  text.reserve(json_size_hint(trace));
  StringSink sink(text);
  std::ostream out(&sink);
  write_trace_json(out, trace);
  return text;
}

void save_trace(const std::filesystem::path& path, const Trace& trace) {
  const std::string text = trace_to_json(trace);
  if (text.size() > kMaxTraceFileBytes)  // every trace written reads back
    throw TraceError("cannot write " + output_name(path) + ": the trace is " + size_text(text.size()) + ", over the " +
                     size_text(kMaxTraceFileBytes) + " a trace may be (what its readers take): lower --n");
  try {
    write_file_atomically(path, text);
  } catch (const std::runtime_error& e) {
    throw TraceError(e.what());
  }
}

}  // namespace sv
