// The run request's text form, its checks and its run (run/request.hpp).
#include "run/request.hpp"

#include "run/launch.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <limits>

#include "algorithms.hpp"
#include "core/application_input.hpp"
#include "core/float_inputs.hpp"
#include "core/schedule.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"

namespace sv {

namespace {

// "{n} 4 does not match" -> "n 4 does not match" (prefix "") or "--n 4 ..." (prefix "--").
std::string spelled(std::string_view text, std::string_view prefix) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t close = text[i] == '{' ? text.find('}', i) : std::string_view::npos;
    const std::string_view key = close == std::string_view::npos ? std::string_view() : text.substr(i + 1, close - i - 1);
    if (!key.empty() && (key == "scan" || std::find(kRequestKeys.begin(), kRequestKeys.end(), key) != kRequestKeys.end())) {
      out += prefix;
      out += key;
      i = close;
    } else {
      out += text[i];
    }
  }
  return out;
}

[[noreturn]] void fail(std::string_view field, const std::string& text) { throw RequestError(std::string(field), text); }

// A field's check that throws std::invalid_argument, its message under the field's name.
template <class F>
auto under(std::string_view field, F&& f) {
  try {
    return f();
  } catch (const RequestError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    fail(field, "{" + std::string(field) + "}: " + e.what());
  }
}

template <class T>
T whole_number(std::string_view key, std::string_view text, T lowest) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range) fail(key, "{" + std::string(key) + "} " + std::string(text) + " is too large");
  if (ec != std::errc() || end != text.data() + text.size() || v < lowest)
    fail(key, "{" + std::string(key) + "}: '" + std::string(text) + "' is not a whole number" +
                  (lowest == std::numeric_limits<T>::min() ? std::string()
                                                           : " from " + std::to_string(lowest) + " to " +
                                                                 std::to_string(std::numeric_limits<T>::max())));
  return v;
}

void check_schedule(const std::string& text) {
  if (!Schedule::parse(text))
    fail("schedule", "{schedule}: unknown schedule '" + text + "' (in-order, reverse, round-robin, random[:SEED])");
}

// A scan's segment heads share: a number above 0 and at most 1.
bool heads_share(const std::string& text) {
  char* end = nullptr;
  const double share = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && share > 0 && share <= 1;
}

bool predicate_parses(std::string_view text) {
  try {
    Predicate::parse(text);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

bool is_block(std::string_view algo) { return find_algorithm(algo) != nullptr; }

}  // namespace

RequestError::RequestError(std::string field_, const std::string& text_)
    : std::invalid_argument(spelled(text_, "")), field(std::move(field_)), text(text_) {}

std::string request_error_text(const RequestError& e, std::string_view prefix) { return spelled(e.text, prefix); }

void set_field(RunRequest& r, std::string_view key, std::string_view value) {
  const std::string v(value);
  if (key == "algo") {
    if (v.empty()) fail(key, "{algo}: no algorithm named (an empty name)");
    r.algorithm = v;
  } else if (key == "n") {
    r.n = whole_number<std::int64_t>(key, value, std::numeric_limits<std::int64_t>::min());
  } else if (key == "block") {
    r.block = whole_number<std::int32_t>(key, value, 0);
  } else if (key == "warp") {
    r.warp = whole_number<std::int32_t>(key, value, std::numeric_limits<std::int32_t>::min());
  } else if (key == "op") {
    const auto op = parse_op_name(v);
    if (!op) fail(key, "{op}: unknown operator '" + v + "' (" + op_names_text() + ")");
    r.op = *op;
  } else if (key == "type") {
    const auto type = parse_type_name(v);
    if (!type) fail(key, "{type}: unknown type '" + v + "' (int32, int64, float, double or interval)");
    r.type = *type;
  } else if (key == "exclusive") {
    if (v != "0" && v != "1" && v != "true" && v != "false") fail(key, "{exclusive}: '" + v + "' is not 1 or 0");
    r.exclusive = v == "1" || v == "true";
  } else if (key == "input") {
    if (v.empty()) fail(key, "{input}: no values given");
    if (v == "random" || v.rfind("random:", 0) == 0) {  // the window's and links' form of a seeded input
      if (v != "random") {
        std::uint64_t seed = 0;
        const auto [end, ec] = std::from_chars(v.data() + 7, v.data() + v.size(), seed);
        if (ec != std::errc() || end != v.data() + v.size() || seed == 0)
          fail(key, "{input}: '" + v + "' is not slides, random:SEED (SEED 1 or more), " + std::string(float_input_names_text()) +
                       " (floats) or values such as 3,6,7,4");
        r.seed = seed;
      }
      r.input.clear();
    } else {
      r.input = v;
    }
  } else if (key == "seed") {
    r.seed = whole_number<std::uint64_t>(key, value, 1);
  } else if (key == "schedule") {
    check_schedule(v);
    r.schedule = v;
  } else if (key == "option") {
    const auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0) fail(key, "{option} " + v + ": expected key=value");
    if (!r.options.emplace(v.substr(0, eq), v.substr(eq + 1)).second)
      fail(key, "{option} " + v.substr(0, eq) + " is given twice");
  } else if (key == "flags") {
    r.flags = v;
  } else if (key == "app") {
    if (v != "compact" && v != "allocate") fail(key, "{app}: unknown application '" + v + "' (compact or allocate)");
    r.app = v;
  } else if (key == "predicate") {
    r.predicate = v;
  } else if (key == "scan") {  // plain, segmented[:DENSITY], compact[:PREDICATE], allocate
    const std::size_t colon = v.find(':');
    const std::string kind = v.substr(0, colon), rest = colon == std::string::npos ? "" : v.substr(colon + 1);
    if (kind == "plain" && colon == std::string::npos) {
      r.flags.clear();
      r.app.clear();
    } else if (kind == "segmented" && (colon == std::string::npos || heads_share(rest))) {
      r.flags = "random:" + (rest.empty() ? std::string("0.25") : rest);
      r.app.clear();
    } else if (kind == "compact" && (rest.empty() || predicate_parses(rest))) {
      r.flags.clear();
      r.app = "compact";
      if (!rest.empty()) r.predicate = rest;
      else if (r.predicate.empty()) r.predicate = "x % 2 == 0";
    } else if (kind == "allocate" && colon == std::string::npos) {
      r.flags.clear();
      r.app = "allocate";
    } else {
      fail("scan", "{scan}: '" + v + "' is not plain, segmented[:DENSITY] (0 to 1), compact[:PREDICATE] (e.g. "
                   "compact:x%2==0) or allocate");
    }
  } else if (key == "executor") {
    if (v != "auto" && v != "gpu" && v != "emulator") fail(key, "{executor}: unknown executor '" + v + "' (auto, gpu or emulator)");
    r.executor = v;
  } else if (key == "amplify") {
    r.amplify = whole_number<std::uint64_t>(key, value, 0);
  } else if (key == "launch") {
    try {
      (void)parse_launch(v);
    } catch (const LaunchError& e) {
      fail(key, "{launch}: " + std::string(e.what()));
    }
    r.launch = v;
  } else {
    std::string keys;
    for (std::string_view k : kRequestKeys) keys += (keys.empty() ? "" : ", ") + std::string(k);
    fail("", "unknown key '" + std::string(key) + "' (" + keys + ")");
  }
}

std::vector<std::pair<std::string, std::string>> request_fields(const RunRequest& r) {
  const RunRequest d;
  std::vector<std::pair<std::string, std::string>> f;
  if (!r.algorithm.empty()) f.emplace_back("algo", r.algorithm);
  if (r.n) f.emplace_back("n", std::to_string(*r.n));
  if (r.block != d.block) f.emplace_back("block", std::to_string(r.block));
  if (r.warp) f.emplace_back("warp", std::to_string(*r.warp));
  if (r.op) f.emplace_back("op", std::string(op_name(*r.op)));
  if (r.type) f.emplace_back("type", std::string(type_name(*r.type)));
  if (r.exclusive) f.emplace_back("exclusive", "1");
  if (!r.input.empty()) f.emplace_back("input", r.input);
  if (r.seed != d.seed) f.emplace_back("seed", std::to_string(r.seed));
  if (!r.schedule.empty()) f.emplace_back("schedule", r.schedule);
  for (const auto& [k, v] : r.options) f.emplace_back("option", k + "=" + v);
  if (!r.flags.empty()) f.emplace_back("flags", r.flags);
  if (!r.app.empty()) f.emplace_back("app", r.app);
  if (!r.predicate.empty()) f.emplace_back("predicate", r.predicate);
  if (r.executor != d.executor) f.emplace_back("executor", r.executor);
  if (r.amplify != d.amplify) f.emplace_back("amplify", std::to_string(r.amplify));
  if (!r.launch.empty()) f.emplace_back("launch", r.launch);
  return f;
}

RunRequest parse_request(std::string_view text) {
  RunRequest r;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) fail("", "'" + std::string(line) + "': expected key=value");
    set_field(r, line.substr(0, eq), line.substr(eq + 1));
  }
  return r;
}

std::string print_request(const RunRequest& r) {
  std::string out;
  for (const auto& [k, v] : request_fields(r)) out += k + "=" + v + "\n";
  return out;
}

void validate_request(const RunRequest& r) {
  if (r.algorithm.empty()) fail("algo", "{algo}: no algorithm named (an empty name)");
  if (!r.launch.empty()) fail("launch", "{launch} says how a kernel of your own is launched; " + r.algorithm + " is a built-in algorithm");
  const AlgorithmInfo* info = find_algorithm(r.algorithm);
  const bool device = find_device_algorithm(r.algorithm) != nullptr;
  if (!info && !device) fail("algo", "{algo}: unknown algorithm '" + r.algorithm + "'");
  if (info && !r.options.empty())
    fail("option", "{option} " + r.options.begin()->first + ": " + r.algorithm +
                       " has no switches (the device-wide algorithms do)");
  const OpKind op = r.op.value_or(OpKind::Sum);
  const ValueType type = r.type.value_or(default_type_for(op));
  under("type", [&] { check_op_type(op, type); });
  if (r.n && *r.n < (device ? 0 : 1))
    fail("n", "{n} must be at least " + std::string(device ? "0" : "1") + ", not " + std::to_string(*r.n));
  if (r.n && *r.n > (std::int64_t{1} << 31)) fail("n", "{n} " + std::to_string(*r.n) + " is too large");
  if (r.seed == 0) fail("seed", "{seed} must be at least 1 (0 marks input typed by hand in a trace)");
  if (r.warp) {
    if (device) fail("warp", "{warp} applies to the block algorithms, not " + r.algorithm);
    const int lowest = info->warp_level ? 2 : 1;
    if (*r.warp < lowest || *r.warp > kMaxWarpWidth || !std::has_single_bit(static_cast<std::uint32_t>(*r.warp)))
      fail("warp", "{warp}: " + std::string(info->warp_level ? "warp width " : "threads in lockstep ") +
                       std::to_string(*r.warp) + " is not a power of two from " + std::to_string(lowest) + " to 32");
  }
  if (!r.predicate.empty() && r.app != "compact") fail("predicate", "{predicate} goes with {app} compact");
  if (!r.app.empty()) {
    if (!r.flags.empty()) fail("app", "{app}: an application's scan is not segmented (drop {flags})");
    if (r.op && *r.op != OpKind::Sum) fail("op", "{app} " + r.app + " scans with sum, not " + std::string(op_name(*r.op)));
    if (type != ValueType::I32 && type != ValueType::I64)
      fail("type", "{app} " + r.app + " scans integer counts: {type} int32 or int64");
    if (r.app == "compact" && r.predicate.empty())
      fail("predicate", "{app} compact needs {predicate}, e.g. {predicate} \"x > 0\"");
  }
  if (!r.schedule.empty()) check_schedule(r.schedule);
  if (!r.schedule.empty() && device)
    fail("schedule", "{schedule} is the warp schedule of the block algorithms; device-wide ones take {option} launch=ORDER");
  if (r.executor == "gpu") {
    if (!r.schedule.empty()) fail("schedule", "{schedule} applies to the emulator only ({executor} emulator)");
    if (info && !info->warp_level && r.warp)
      fail("warp", "{warp} narrows " + r.algorithm + "'s lockstep on the emulator; a GPU's warps are 32 lanes ({executor} emulator)");
  }
  if (r.executor == "emulator" && r.amplify)
    fail("amplify", "{amplify} " + std::to_string(r.amplify) + " applies to the GPU executor only ({executor} gpu)");
}

void make_application_input(BlockRunConfig& c, std::string_view app, std::string_view predicate) {
  const bool random = c.input.empty();
  std::vector<Payload> values = random ? random_input(OpKind::Sum, c.type, static_cast<std::size_t>(c.n), c.input_seed) : c.input;
  c.application.kind = std::string(app);
  if (app == "compact") {
    const Predicate p = under("predicate", [&] { return Predicate::parse(predicate); });
    c.input = compaction_flags(p, c.type, values);
    c.application.predicate = std::string(predicate);
    c.application.values = std::move(values);
    return;
  }
  if (random)  // random requests: the sizes 0..9
    for (Payload& v : values)
      v = c.type == ValueType::I64 ? Payload::of(std::int64_t{(v.as<std::int64_t>() % 10 + 10) % 10})
                                   : Payload::of((v.as<std::int32_t>() % 10 + 10) % 10);
  under("input", [&] { check_requests(c.type, values); });
  c.input = std::move(values);
}

BlockRunConfig run_config(const RunRequest& r) {
  validate_request(r);
  BlockRunConfig c;
  c.algorithm = r.algorithm;
  c.options = r.options;
  c.op = r.app.empty() ? r.op.value_or(OpKind::Sum) : OpKind::Sum;
  c.type = r.type.value_or(default_type_for(c.op));
  c.exclusive = r.exclusive || !r.app.empty();
  c.block = r.block;
  if (r.warp) c.warp = *r.warp;
  c.input_seed = r.seed;
  c.schedule = *Schedule::parse(r.schedule.empty() ? "in-order" : r.schedule, r.seed);
  if (r.input == "slides") {
    c.input = slides_input(c.op, c.type, static_cast<std::size_t>(r.n.value_or(8)));
  } else if (is_float_input_name(r.input)) {
    if (c.op != OpKind::Sum) fail("input", "{input} " + r.input + " is an input of float sums, not of " + std::string(op_name(c.op)));
    if (c.type != ValueType::F32 && c.type != ValueType::F64)
      fail("input", "{input} " + r.input + " is an input of floats: " + std::string(type_name(c.type)) +
                        " sums are exact in any order ({type} float or double)");
    c.input = *under("input", [&] { return float_input(r.input, c.type, static_cast<std::size_t>(r.n.value_or(8)), r.seed); });
  } else if (!r.input.empty()) {
    c.input = under("input", [&] { return parse_value_list(r.input, c.type); });
    under("input", [&] { check_op_values(c.op, c.type, c.input); });
    if (r.n && *r.n != static_cast<std::int64_t>(c.input.size()))
      fail("n", "{n} " + std::to_string(*r.n) + " does not match the " + std::to_string(c.input.size()) + " values of {input}");
  }
  c.n = !c.input.empty() ? static_cast<std::int64_t>(c.input.size()) : r.n.value_or(8);
  if (const AlgorithmInfo* info = find_algorithm(r.algorithm)) {  // one block holds n; the warp fits the block
    const BlockShape shape = under(r.block && c.n <= kMaxBlockThreads * info->items_per_thread ? "block" : "n",
                                   [&] { return block_shape(*info, c.n, r.block); });
    if (r.warp) under("warp", [&] { return warp_width_for(*info, shape.capacity, *r.warp); });
  }
  if (!r.flags.empty()) c.flags = under("flags", [&] { return flags_from_option(r.flags, static_cast<std::size_t>(c.n), r.seed); });
  if (!r.app.empty()) make_application_input(c, r.app, r.predicate);
  return c;
}

RunRequest request_from_meta(const TraceMeta& m) {
  RunRequest r;
  r.algorithm = m.algorithm;
  r.n = m.n;
  r.block = m.block;
  r.op = m.op;
  r.type = m.type;
  r.exclusive = m.exclusive && m.application.kind.empty();
  for (const auto& [key, value] : m.options) {  // the switches that differ from their defaults
    const auto& all = device_switches();
    // (a lambda names the key through a reference: clang before 16, Emscripten's, captures no binding)
    const std::string& name = key;
    const auto s = std::find_if(all.begin(), all.end(), [&](const SwitchInfo& i) { return i.key == name; });
    if (s == all.end() || s->fallback != value) r.options[key] = value;
  }
  if (const auto w = r.options.find("warp"); w != r.options.end()) {
    r.warp = std::stoi(w->second);
    r.options.erase(w);
  }
  if (const auto a = r.options.find("amplify"); a != r.options.end()) {
    r.amplify = std::stoull(a->second);
    r.options.erase(a);
  }
  if (const auto l = r.options.find("kernel_launch"); l != r.options.end()) {  // a kernel of your own's
    r.launch = l->second;
    r.options.erase(l);
  }
  if (const auto p = r.options.find("pipelined"); p != r.options.end() && p->second == "on") {
    r.block = 0;  // the pipelined kernel has its own tile, which a request may not set
    r.options.erase("items");
  }
  if (is_block(m.algorithm)) {
    r.options.clear();
    if (m.executor.kind == "emulator" && !m.executor.schedule.empty()) {
      Schedule s;
      const auto parsed = Schedule::parse(m.executor.schedule, m.executor.seed ? m.executor.seed : 1);
      if (parsed) s = *parsed;
      if (s.kind != Schedule::Kind::InOrder) r.schedule = s.name();
    }
  }
  if (!m.executor.kind.empty()) r.executor = m.executor.kind == "gpu" ? "gpu" : "emulator";
  r.app = m.application.kind;
  if (r.app == "compact") r.predicate = m.application.predicate;
  if (!r.app.empty()) r.op.reset();
  const std::vector<Payload>& values = r.app == "compact" ? m.application.values : m.input;
  if (m.input_seed != 0 && r.app.empty()) {
    r.seed = m.input_seed;
  } else {
    for (const Payload& v : values) {
      if (!r.input.empty()) r.input += ',';
      r.input += format_value(m.type, v);
    }
  }
  for (const std::uint8_t f : m.flags) {
    if (!r.flags.empty()) r.flags += ',';
    r.flags += f ? '1' : '0';
  }
  return r;
}

}  // namespace sv
