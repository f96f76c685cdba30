#include "gui/lesson/lesson.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "algorithms.hpp"
#include "analysis/application.hpp"
#include "core/charconv.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "gpu/executor.hpp"
#include "run/request.hpp"

namespace sv::gui {

BlockRunConfig lesson_config(const LessonControls& l, const std::string& algorithm) {
  BlockRunConfig c;
  c.algorithm = algorithm;
  c.n = l.n;
  c.block = l.block;
  if (const AlgorithmInfo* info = find_algorithm(algorithm)) {
    if (info->warp_level) c.warp = l.warp;
    else if (const int lanes = l.lanes ? l.lanes : info->racy ? 1 : kMaxWarpWidth; !l.gpu && lanes != kMaxWarpWidth)
      c.warp = lanes;  // the GPU runs warps of 32
  }
  c.op = static_cast<OpKind>(l.op);
  c.type = c.op == OpKind::Interval ? ValueType::Interval : static_cast<ValueType>(l.type);
  c.exclusive = l.exclusive;
  c.input_seed = static_cast<std::uint64_t>(l.input_seed);
  const bool application = l.scan_kind >= 2;
  if (application) {  // the exclusive sum of counts (cli: --app)
    c.op = OpKind::Sum;
    c.type = c.type == ValueType::I64 ? ValueType::I64 : ValueType::I32;
    c.exclusive = true;
  }
  if (l.input_mode == 0) c.input = slides_input(c.op, c.type, static_cast<std::size_t>(l.n));
  if (l.input_mode == 2) {
    c.input = parse_value_list(l.typed, c.type);
    c.n = static_cast<std::int64_t>(c.input.size());
  }
  if (l.scan_kind == 1) {
    c.flags = random_flags(static_cast<std::size_t>(c.n), l.segment_density, c.input_seed);
    c.exclusive = false;
  }
  if (application) make_application_input(c, l.scan_kind == 2 ? "compact" : "allocate", l.predicate);  // as the command line makes it
  const auto schedule = Schedule::parse(schedule_text(l));
  if (!schedule) throw std::invalid_argument("the schedule seed must be a non-negative number");
  c.schedule = *schedule;
  return c;
}

std::string schedule_text(const LessonControls& l) {
  std::string text(schedule_kind_names()[static_cast<std::size_t>(l.schedule)]);
  if (l.schedule == static_cast<int>(Schedule::Kind::Random)) text += ':' + std::to_string(l.schedule_seed);
  return text;
}

bool set_schedule(LessonControls& l, std::string_view text) {
  const auto schedule = Schedule::parse(text, static_cast<std::uint64_t>(l.schedule_seed));
  if (!schedule || schedule->seed > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return false;
  l.schedule = static_cast<int>(schedule->kind);
  if (schedule->kind == Schedule::Kind::Random) l.schedule_seed = static_cast<int>(schedule->seed);
  return true;
}

std::string input_text(const LessonControls& l) {
  if (l.input_mode == 1) return "random:" + std::to_string(l.input_seed);
  if (l.input_mode == 2) return l.typed;
  return "slides";
}

bool set_input(LessonControls& l, std::string_view text) {
  if (text == "slides") {
    l.input_mode = 0;
    return true;
  }
  if (text == "random" || text.rfind("random:", 0) == 0) {
    int seed = l.input_seed;
    if (text != "random") {
      const std::string_view digits = text.substr(7);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), seed);
      if (ec != std::errc() || end != digits.data() + digits.size() || seed < 1) return false;
    }
    l.input_mode = 1;
    l.input_seed = seed;
    return true;
  }
  if (text.empty() || text.size() >= sizeof l.typed) return false;
  l.input_mode = 2;
  std::snprintf(l.typed, sizeof l.typed, "%.*s", static_cast<int>(text.size()), text.data());
  return true;
}

namespace {
constexpr const char* kScanNames[] = {"plain", "segmented", "compact", "allocate"};
}  // namespace

std::string scan_text(const LessonControls& l) {
  std::string text = kScanNames[std::clamp(l.scan_kind, 0, 3)];
  if (l.scan_kind == 1) {
    char density[32];
    std::snprintf(density, sizeof density, ":%g", static_cast<double>(l.segment_density));
    text += density;
  }
  if (l.scan_kind == 2) text += std::string(":") + l.predicate;
  return text;
}

bool set_scan(LessonControls& l, std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon), rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  const auto* name = std::find(std::begin(kScanNames), std::end(kScanNames), kind);
  if (name == std::end(kScanNames)) return false;
  const int scan_kind = static_cast<int>(name - std::begin(kScanNames));
  if (colon != std::string_view::npos && (scan_kind == 0 || scan_kind == 3)) return false;
  if (scan_kind == 1 && !rest.empty()) {
    float density = 0;
    const auto [end, ec] = sv::from_chars(rest.data(), rest.data() + rest.size(), density);
    if (ec != std::errc() || end != rest.data() + rest.size() || !(density > 0 && density <= 1)) return false;
    l.segment_density = density;
  }
  if (scan_kind == 2 && !rest.empty()) {
    try {
      Predicate::parse(rest);
    } catch (const std::invalid_argument&) {
      return false;
    }
    if (rest.size() >= sizeof l.predicate) return false;
    std::snprintf(l.predicate, sizeof l.predicate, "%.*s", static_cast<int>(rest.size()), rest.data());
  }
  l.scan_kind = scan_kind;
  return true;
}

void lesson_from_trace(LessonControls& l, const TraceMeta& m) {
  const AlgorithmInfo* info = find_algorithm(m.algorithm);
  if (!info) return;
  l.algorithm = static_cast<int>(info - block_algorithms().data());
  l.n = static_cast<int>(m.n);
  l.block = m.block;
  if (info->warp_level) l.warp = m.warp_width();
  else l.lanes = m.warp_width();
  l.op = static_cast<int>(m.op);
  if (m.type != ValueType::Interval) l.type = static_cast<int>(m.type);
  l.exclusive = m.exclusive;
  l.scan_kind = m.application.kind == "compact" ? 2 : m.application.kind == "allocate" ? 3 : m.flags.empty() ? 0 : 1;
  if (l.scan_kind == 1)
    l.segment_density = static_cast<float>(std::count(m.flags.begin(), m.flags.end(), 1)) / static_cast<float>(m.flags.size());
  if (l.scan_kind == 2) std::snprintf(l.predicate, sizeof l.predicate, "%s", m.application.predicate.c_str());
  const std::vector<Payload>& values = l.scan_kind == 2 ? m.application.values : m.input;
  std::string text;
  for (const Payload& v : values) {
    if (!text.empty()) text += ',';
    text += format_value(m.type, v);
  }
  if (text.size() < sizeof l.typed) {
    std::snprintf(l.typed, sizeof l.typed, "%s", text.c_str());
    l.input_mode = 2;
  } else {
    l.input_mode = 1;
    l.input_seed = static_cast<int>(m.input_seed);
  }
}

std::string side_by_side_partner(const std::string& lesson_algorithm) {
  return lesson_algorithm == "kogge-stone-racy" ? "kogge-stone-double-buffer" : "kogge-stone-racy";
}

LessonRecording record_lesson_controls(const LessonControls& l, bool side_by_side) {
  const auto start = std::chrono::steady_clock::now();
  LessonRecording r;
  try {
    const std::string algo(block_algorithms()[l.algorithm].name);
    auto record = [&](const std::string& name) {
      const BlockRunConfig c = lesson_config(l, name);
      return std::make_unique<TraceView>(make_trace_view(
          l.gpu ? record_block_scan_gpu(c, GpuOptions{GpuOptions{}.trace_capacity, static_cast<std::uint64_t>(l.amplify_seed)})
                : record_block_scan(c)));
    };
    r.view = record(algo);
    if (side_by_side) r.racy = record(side_by_side_partner(algo));
  } catch (const std::exception& e) {
    r.view.reset();
    r.racy.reset();
    r.error = e.what();
  }
  r.record_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void show_recording(Lesson& l, LessonRecording&& r) {
  l.record_ms = r.record_ms;
  l.error = std::move(r.error);
  if (!l.error.empty()) return;
  l.view = std::move(r.view);
  l.racy = std::move(r.racy);
}

void record_lesson(Lesson& l, bool side_by_side) { show_recording(l, record_lesson_controls(l, side_by_side)); }

}  // namespace sv::gui
