// The report card's lines (card_text.hpp).
#include "grade/card_text.hpp"

#include <cstdio>
#include <map>

namespace sv::card {

std::string number(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", v);
  return s;
}

std::string headline(const cuda::CheckReport& r) {
  std::string s = r.file + ": " + r.verdict;
  if (!r.kernel.empty())
    s += " (kernel " + r.kernel + ", blocks of " + std::to_string(r.block) + " threads scanning " + std::to_string(r.capacity) + " elements, " +
         (r.exclusive ? "exclusive" : "inclusive") + " scan" + (r.exclusive_told ? ", told from its outputs" : "") + ")";
  return s;
}

std::string cases_line(const cuda::CheckReport& r) {
  std::map<std::string, int> count;
  for (const cuda::CheckCase& c : r.cases) ++count[c.outcome];
  std::string schedules, warps, inputs;
  for (const cuda::CheckCase& c : r.cases)
    if (inputs.find(c.input) == std::string::npos) inputs += (inputs.empty() ? "" : " and ") + c.input;
  for (const std::string& s : r.schedules) schedules += (schedules.empty() ? "" : ", ") + s;
  for (const std::int32_t w : r.warps) warps += (warps.empty() ? "" : "/") + std::to_string(w);
  return "cases: " + std::to_string(r.cases.size()) + " run (sizes, " + inputs + " as inputs, schedules " + schedules + ", lockstep widths " +
         warps + (r.block > 64 ? "; fewer for a block of over 64 threads" : "") + "): " + std::to_string(count["correct"]) + " correct, " +
         std::to_string(count["wrong"]) + " wrong, " + std::to_string(count["error"]) + " faulted";
}

std::string case_line(const cuda::CheckCase& c) {
  return "wrong: n = " + std::to_string(c.n) + " (" + std::to_string(c.grid) + (c.grid == 1 ? " block" : " blocks") + "), " + c.input +
         ", schedule " + c.schedule + ", lockstep " + std::to_string(c.warp) + ": " + c.detail;
}

std::string error_line(const cuda::CheckError& e) {
  return e.severity + ": " + e.kind + (e.line ? " at line " + std::to_string(e.line) : "") + ": " + e.message;
}

std::string hazard_line(const cuda::CheckHazard& h) {
  return "hazard: " + h.kind + " on " + h.buffer + "[" + std::to_string(h.index) + "] (" + h.memory + " memory" +
         (h.block_first >= 0 ? ", between blocks" : "") + ") in step " + std::to_string(h.step) + ": " + cuda::hazard_accesses(h) +
         " (n = " + std::to_string(h.n) + ", schedule " + h.schedule + ", lockstep " + std::to_string(h.warp) + ")";
}

std::string why_line(const cuda::CheckError& d) {
  return "why" + (d.line ? " (line " + std::to_string(d.line) + ")" : std::string()) + ": " + d.message;
}

std::string work_line(const cuda::CheckReport& r) {
  if (!r.work || !r.steps) return {};
  return "work and steps at n = " + std::to_string(r.work_n) + ": " + std::to_string(*r.work) + " operations, " + std::to_string(*r.steps) +
         " steps" + (r.matches ? "; matches " + *r.matches + "'s closed forms" : "; matches no known algorithm's closed forms");
}

}  // namespace sv::card
