// The page's query string as window options (app/web/url_options.hpp).
#include "web/url_options.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

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

}  // namespace

std::string apply_query(std::string_view query, gui::GuiOptions& o) {
  if (!query.empty() && query.front() == '?') query.remove_prefix(1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string key = decoded(pair.substr(0, eq));
    const std::string value = eq == std::string_view::npos ? "" : decoded(pair.substr(eq + 1));
    int number = 0;
    const bool is_number = to_int(value, number);
    if (key == "algo") o.algorithm = value;
    else if (key == "op") o.op = value;
    else if (key == "theme") o.theme = value;
    else if (key == "lookback") o.lookback = value;
    else if (key == "schedule") o.schedule = value;  // these four are checked where the window sets them (window/option_checks.cpp)
    else if (key == "type") o.type = value;
    else if (key == "input") o.input = value;
    else if (key == "scan") o.scan = value;
    else if (key == "exclusive") o.exclusive = value != "0";
    else if (key == "charts") o.charts = value != "0";
    else if (key == "timing") o.timing = value != "0";
    else if (key == "divergence") o.divergence = value != "0";
    else if (key == "trace") o.trace_path = value;  // a URL: main() fetches it
    else if (key == "bench") o.bench_json = value;
    else if (key == "lecture") o.lecture = value != "0";
    else if (key == "side") o.side_by_side = value != "0";
    else if (key == "n" || key == "step" || key == "warp") {
      const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
      if (digits && !is_number) return "link: " + key + "=" + value + " is too large";
      if (!is_number || number < 0) return "link: " + key + "=" + value + " is not a whole number";
      if (key == "n" && number < 1) return "link: n=" + value + " must be at least 1";
      (key == "n" ? o.n : key == "step" ? o.step : o.warp) = number;
    } else {
      return "link: unknown key '" + key +
             "' (algo, n, op, type, exclusive, input, scan, schedule, step, warp, theme, lookback, charts, timing, "
             "divergence, lecture, side, trace, bench)";
    }
  }
  return {};
}

std::string link_query(const gui::GuiOptions& o) {
  std::string query;
  const auto add = [&](const char* key, const std::string& value) {
    query += (query.empty() ? "?" : "&") + std::string(key) + "=" + encoded(value);
  };
  if (!o.algorithm.empty()) add("algo", o.algorithm);
  if (o.n > 0) add("n", std::to_string(o.n));
  if (!o.op.empty()) add("op", o.op);
  if (!o.type.empty()) add("type", o.type);
  if (o.exclusive) add("exclusive", "1");
  if (!o.input.empty()) add("input", o.input);
  if (!o.scan.empty()) add("scan", o.scan);
  if (!o.schedule.empty()) add("schedule", o.schedule);
  if (o.warp > 0) add("warp", std::to_string(o.warp));
  if (o.step >= 0) add("step", std::to_string(o.step));
  if (o.side_by_side) add("side", "1");
  if (o.lecture) add("lecture", "1");
  if (o.charts) add("charts", "1");
  if (o.timing) add("timing", "1");
  if (o.divergence) add("divergence", "1");
  if (!o.bench_json.empty()) add("bench", o.bench_json);
  if (!o.lookback.empty()) add("lookback", o.lookback);
  return query;
}

}  // namespace sv::web
