#include "kernel_source.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <sstream>
#include <stdexcept>

#include "emulator/record.hpp"
#include "trace/phase.hpp"

namespace sv {

namespace {

constexpr std::array<std::string_view, kMarkKindCount> kMarkKindNames = {"step", "read", "write", "op", "barrier"};

std::uint8_t bit(MarkKind k) { return static_cast<std::uint8_t>(1u << static_cast<int>(k)); }
MarkKind mark_kind(EventKind k) { return static_cast<MarkKind>(static_cast<int>(k) + 1); }

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

// One "@PHASE[=N|>N][:KIND,...]" word, without its '@'.
SourceMark parse_mark(std::string_view word, std::size_t line) {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("line " + std::to_string(line) + ": mark '@" + std::string(word) + "': " + why);
  };
  SourceMark mark;
  const std::size_t colon = word.find(':');
  std::string_view head = word.substr(0, colon);
  const std::size_t cmp = head.find_first_of("=>");
  if (cmp != std::string_view::npos) {
    mark.when = head[cmp] == '=' ? SourceMark::When::Equal : SourceMark::When::Above;
    const std::string_view number = head.substr(cmp + 1);
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), mark.param);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size()) fail("the parameter is not a number");
    head = head.substr(0, cmp);
  }
  const auto phase = parse_phase_name(head);
  if (!phase) fail("no phase is called '" + std::string(head) + "'");
  mark.phase = *phase;
  if (colon == std::string_view::npos) {
    mark.kinds = kEveryMarkKind;
    return mark;
  }
  std::string_view kinds = word.substr(colon + 1);
  while (true) {
    const std::size_t comma = kinds.find(',');
    const std::string_view name = kinds.substr(0, comma);
    const auto it = std::find(kMarkKindNames.begin(), kMarkKindNames.end(), name);
    if (it == kMarkKindNames.end()) fail("'" + std::string(name) + "' is not step, read, write, op or barrier");
    mark.kinds |= static_cast<std::uint8_t>(1u << (it - kMarkKindNames.begin()));
    if (comma == std::string_view::npos) break;
    kinds = kinds.substr(comma + 1);
  }
  return mark;
}

const Step* step_at(const Trace& t, int step) {
  return step >= 0 && step < static_cast<int>(t.steps.size()) ? &t.steps[static_cast<std::size_t>(step)] : nullptr;
}

// Whether one of the line's marks is for the step doing one of `kinds` there.
bool lights(const SourceLine& line, const Step& s, std::uint8_t kinds) {
  for (const SourceMark& m : line.marks)
    for (int k = 0; k < kMarkKindCount; ++k)
      if ((kinds >> k & 1) && m.matches(s, static_cast<MarkKind>(k))) return true;
  return false;
}

}  // namespace

std::uint8_t step_mark_kinds(const Trace& t, const Step& s) {
  std::uint8_t kinds = bit(MarkKind::Step);
  for (std::uint64_t i = s.first_event; i < s.end_event && i < t.events.size(); ++i) kinds |= bit(mark_kind(t.events[i].kind));
  return kinds;
}

bool SourceMark::matches(const Step& step, MarkKind kind) const {
  if (step.phase != phase || !(kinds & bit(kind))) return false;
  if (when == When::Equal) return step.param == param;
  if (when == When::Above) return step.param > param;
  return true;
}

std::vector<SourceLine> parse_cuda_form(std::string_view text) {
  std::vector<SourceLine> lines;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    SourceLine line;
    const std::size_t comment = raw.find("//");
    if (comment == std::string::npos) {
      line.text = trim_right(raw);
      lines.push_back(std::move(line));
      continue;
    }
    std::istringstream words(raw.substr(comment + 2));
    std::string kept;
    for (std::string word; words >> word;) {
      if (word.size() > 1 && word[0] == '@') {
        line.marks.push_back(parse_mark(std::string_view(word).substr(1), lines.size() + 1));
      } else {
        kept += (kept.empty() ? "" : " ") + word;
      }
    }
    if (line.marks.empty()) {
      line.text = trim_right(raw);
    } else {
      line.text = trim_right(raw.substr(0, comment));
      if (!kept.empty()) line.text += (line.text.empty() ? "// " : "  // ") + kept;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string cuda_form_file(std::string_view algorithm) {
  if (is_device_algorithm(algorithm)) return {};
  std::string file = "block/cuda/" + std::string(algorithm) + ".cu";
  std::replace(file.begin() + 11, file.end(), '-', '_');
  return file;
}

std::string emulator_form_file(std::string_view algorithm) {
  const std::string dir = is_device_algorithm(algorithm) ? "device/" : "block/";
  std::string file = dir + std::string(algorithm) + ".hpp";
  std::replace(file.begin() + static_cast<std::ptrdiff_t>(dir.size()), file.end(), '-', '_');
  return file;
}

std::set<std::uint32_t> emulator_lines(const Trace& t, int step) {
  std::set<std::uint32_t> lines;
  const Step* s = step_at(t, step);
  if (!s) return lines;
  lines.insert(s->line);
  for (std::uint64_t i = s->first_event; i < s->end_event && i < t.events.size(); ++i) lines.insert(t.events[i].line);
  return lines;
}

std::set<std::uint32_t> cuda_lines(const std::vector<SourceLine>& form, const Trace& t, int step) {
  std::set<std::uint32_t> lines;
  const Step* s = step_at(t, step);
  if (!s) return lines;
  const std::uint8_t kinds = step_mark_kinds(t, *s);
  for (std::size_t l = 0; l < form.size(); ++l)
    if (lights(form[l], *s, kinds)) lines.insert(static_cast<std::uint32_t>(l + 1));
  return lines;
}

std::vector<std::string> unmapped_parts(const std::vector<SourceLine>& form, const Trace& t, int step) {
  std::vector<std::string> parts;
  const Step* s = step_at(t, step);
  if (!s) return parts;
  const std::uint8_t kinds = step_mark_kinds(t, *s);
  for (int k = 0; k < kMarkKindCount; ++k) {
    const auto kind = static_cast<std::uint8_t>(1u << k);
    if (!(kinds & kind)) continue;
    if (std::none_of(form.begin(), form.end(), [&](const SourceLine& line) { return lights(line, *s, kind); }))
      parts.push_back(s->label() + ": " + std::string(kMarkKindNames[static_cast<std::size_t>(k)]));
  }
  return parts;
}

}  // namespace sv
