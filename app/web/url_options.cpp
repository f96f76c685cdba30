// The page's query string as window options (app/web/url_options.hpp): the lesson's keys are the run
// request's (run/request.hpp), set and printed by it; the rest are the window's views.
#include "web/url_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "lesson_run.hpp"

namespace sv::web {

namespace {

// %XX and '+' decoded, as browsers encode a query.
std::string decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::strtol(std::string(text.substr(i + 1, 2)).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Everything but letters, digits and -._~ as %XX, as a query's values need.
std::string encoded(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
    else out += {'%', hex[c >> 4], hex[c & 15]};
  }
  return out;
}

bool to_int(const std::string& text, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool is_request_key(std::string_view key) {
  return key == "scan" || std::find(kRequestKeys.begin(), kRequestKeys.end(), key) != kRequestKeys.end();
}

}  // namespace

std::string apply_query(std::string_view query, gui::GuiOptions& o) {
  if (!query.empty() && query.front() == '?') query.remove_prefix(1);
  bool op_given = false, type_given = false;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string key = decoded(pair.substr(0, eq));
    const std::string value = eq == std::string_view::npos ? "" : decoded(pair.substr(eq + 1));
    if (is_request_key(key)) {  // the lesson's fields, as the command line's flags set them
      try {
        set_field(o.lesson, key, value);
      } catch (const RequestError& e) {
        return "link: " + request_error_text(e, "");
      }
      o.input_given |= key == "input";
      op_given |= key == "op";
      type_given |= key == "type";
    } else if (key == "theme") o.theme = value;
    else if (key == "lookback") o.lookback = value;
    else if (key == "charts") o.charts = value != "0";
    else if (key == "timing") o.timing = value != "0";
    else if (key == "divergence") o.divergence = value != "0";
    else if (key == "floats") o.floats = value != "0";
    else if (key == "trace") o.trace_path = value;  // a URL: main() fetches it
    else if (key == "bench") o.bench_json = value;
    else if (key == "lecture") o.lecture = value != "0";
    else if (key == "side") o.side_by_side = value != "0";
    // The timeline playing from the start (not where the reader's browser asks for less motion).
    else if (key == "play") o.play = value != "0";
    else if (key == "font-scale") {  // the window's text, 1 to 3 times (View > font scale)
      char* end = nullptr;
      const float scale = std::strtof(value.c_str(), &end);
      if (value.empty() || end != value.c_str() + value.size() || !(scale >= 1 && scale <= 3)) return "link: font-scale=" + value + " is not a number from 1 to 3";
      o.font_scale = scale;
    }
    else if (key == "step") {
      int number = 0;
      const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
      if (digits && !to_int(value, number)) return "link: step=" + value + " is too large";
      if (!digits) return "link: step=" + value + " is not a whole number";
      o.step = number;
    } else {
      std::string keys;
      for (const std::string_view k : kRequestKeys) keys += std::string(k) + ", ";
      return "link: unknown key '" + key + "' (" + keys +
             "scan, step, theme, font-scale, play, lookback, charts, timing, divergence, floats, lecture, side, trace, bench)";
    }
  }
  float_input_defaults(o.lesson, op_given, type_given);  // as the command line does
  return {};
}

std::string link_query(const gui::GuiOptions& o) {
  std::string query;
  const auto add = [&](const std::string& key, const std::string& value) {
    query += (query.empty() ? "?" : "&") + key + "=" + encoded(value);
  };
  // The lesson's fields that differ from the default lesson's (what a link without them opens), in
  // the links' short forms where a field has one: input=random:SEED for a seeded input, and
  // scan=segmented:SHARE, compact:PREDICATE or allocate for drawn heads and the applications.
  const RunRequest& r = o.lesson;
  const RunRequest lesson = default_lesson_request();
  const auto defaults = request_fields(lesson);
  const bool seeded = r.input.empty();
  const double share = r.flags.rfind("random:", 0) == 0 ? std::strtod(r.flags.c_str() + 7, nullptr) : 0;
  const bool drawn_heads = r.app.empty() && share > 0 && share <= 1;  // what scan=segmented:SHARE takes
  for (const auto& field : request_fields(r)) {
    const std::string& key = field.first;
    if (key == "input" || (key == "seed" && seeded) || key == "app" || key == "predicate" || (key == "flags" && drawn_heads) ||
        key == "executor")
      continue;  // below
    if (std::find(defaults.begin(), defaults.end(), field) == defaults.end()) add(key, field.second);
  }
  if (o.input_given || r.input != lesson.input) add("input", seeded ? "random:" + std::to_string(r.seed) : r.input);
  if (r.executor != lesson.executor) add("executor", r.executor);  // auto too, which request_fields leaves out
  if (drawn_heads) add("scan", "segmented:" + r.flags.substr(7));
  if (r.app == "compact") add("scan", "compact:" + r.predicate);
  if (r.app == "allocate") add("scan", "allocate");
  if (o.step >= 0) add("step", std::to_string(o.step));
  if (o.side_by_side) add("side", "1");
  if (o.lecture) add("lecture", "1");
  if (o.charts) add("charts", "1");
  if (o.timing) add("timing", "1");
  if (o.divergence) add("divergence", "1");
  if (o.floats) add("floats", "1");
  if (!o.bench_json.empty()) add("bench", o.bench_json);
  if (!o.lookback.empty()) add("lookback", o.lookback);
  return query;
}

}  // namespace sv::web
