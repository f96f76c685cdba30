// The rubric's items over a report card (grade.hpp).
#include "grade/grade.hpp"

#include <algorithm>
#include <cstdio>

#include "algorithms.hpp"
#include "grade/card_text.hpp"

namespace sv::grade {

namespace {

bool source_refused(const cuda::CheckReport& r) { return r.verdict == "error"; }

// The scan the kernel computes is the other one than asked: told from its outputs (inclusive asked,
// exclusive told). An exclusive scan asked is judged as exclusive, so its probe runs the other way.
bool other_scan_told(const cuda::CheckReport& r, const std::string& scan) { return scan == "inclusive" && r.exclusive && r.exclusive_told; }

void outputs(ItemResult& it, const cuda::CheckReport& r, const std::string& scan) {
  const auto correct = std::count_if(r.cases.begin(), r.cases.end(), [](const cuda::CheckCase& c) { return c.outcome == "correct"; });
  const auto total = static_cast<std::int64_t>(r.cases.size());
  it.lines.push_back(card::cases_line(r));
  if (!r.float_judge.empty()) it.lines.push_back("floats: " + r.float_judge);
  if (other_scan_told(r, scan)) {
    it.summary = "Its outputs are the exclusive scan; the inclusive scan is asked, so every output is wrong.";
    return;
  }
  it.passed = total > 0 && correct == total;
  it.score = it.passed ? it.item.points : it.item.partial && total > 0 ? it.item.points * static_cast<double>(correct) / static_cast<double>(total) : 0;
  it.summary = std::to_string(correct) + " of " + std::to_string(total) + " cases correct.";
  int shown = 0;
  for (const cuda::CheckCase& c : r.cases)
    if (c.outcome == "wrong" && shown++ < 5) it.lines.push_back(card::case_line(c));
  for (const cuda::CheckCase& c : r.cases)
    if (c.outcome == "error" && shown++ < 5) it.lines.push_back("faulted: n = " + std::to_string(c.n) + ", schedule " + c.schedule + ", warp " + std::to_string(c.warp) + ": " + c.detail);
  for (const cuda::CheckError& d : r.diagnoses) it.lines.push_back(card::why_line(d));
}

void races(ItemResult& it, const cuda::CheckReport& r) {
  it.passed = r.hazards.empty();
  it.summary = it.passed ? "No hazard in " + std::to_string(r.cases.size()) + " cases." : std::to_string(r.hazards.size()) + " hazard" + (r.hazards.size() == 1 ? "" : "s") + " (a race: two threads touch one cell with nothing ordering them).";
  for (const cuda::CheckHazard& h : r.hazards) it.lines.push_back(card::hazard_line(h));
}

void faults(ItemResult& it, const cuda::CheckReport& r) {
  int count = 0;
  for (const cuda::CheckError& e : r.errors) {
    count += e.severity == "error";
    it.lines.push_back(card::error_line(e));
  }
  it.passed = count == 0;
  it.summary = it.passed ? "No fault." : std::to_string(count) + " fault" + (count == 1 ? "" : "s") + ".";
}

void scan_kind(ItemResult& it, const cuda::CheckReport& r, const std::string& scan, const OtherScanProbe& other) {
  const std::string other_name = scan == "inclusive" ? "exclusive" : "inclusive";
  const bool some = std::any_of(r.cases.begin(), r.cases.end(), [](const cuda::CheckCase& c) { return c.outcome == "correct"; });
  if (other_scan_told(r, scan) || (!some && scan == "exclusive" && other && other())) {
    it.summary = "It computes the " + other_name + " scan; the " + scan + " scan is asked.";
    return;
  }
  it.passed = some;
  it.summary = some ? "It computes the " + scan + " scan (at least one case gives it)." : "No case gives the " + scan + " scan, nor the " + other_name + " one.";
}

void matches(ItemResult& it, const cuda::CheckReport& r) {
  it.passed = r.matches && *r.matches == it.item.algorithm;
  if (const std::string w = card::work_line(r); !w.empty()) it.lines.push_back(w);
  it.summary = it.passed ? "Its work and steps are " + it.item.algorithm + "'s."
                         : r.work ? "Its work and steps are not " + it.item.algorithm + "'s." : "Its work and steps were not measured (a full block's elements must be a power of two, and the kernel must run).";
}

void work(ItemResult& it, const cuda::CheckReport& r) {
  const auto form = r.work ? closed_form(it.item.algorithm, r.work_n, r.exclusive) : std::nullopt;
  if (!form) {
    it.summary = "Its work was not measured (a full block's elements must be a power of two, and the kernel must run).";
    return;
  }
  const double bound = it.item.factor * static_cast<double>(form->operations);
  it.passed = static_cast<double>(*r.work) <= bound;
  const AlgorithmInfo* a = find_algorithm(it.item.algorithm);
  it.summary = std::to_string(*r.work) + " operations at n = " + std::to_string(r.work_n) + (it.passed ? ", within " : ", over ") +
               (it.item.factor == 1 ? "" : card::number(it.item.factor) + " x ") + it.item.algorithm + "'s " + std::to_string(form->operations) + " (" +
               std::string(a ? a->work : "") + ").";
  it.lines.push_back(card::work_line(r));
}

void gpu_time(ItemResult& it, const cuda::CheckReport& r) {
  if (!r.gpu || !r.gpu->ran || !r.gpu->timed) {
    it.summary = "Not timed: " + (r.gpu ? (r.gpu->note.empty() ? std::string("the GPU run did not reach the timing") : r.gpu->note) : std::string("the grader ran without --gpu")) + ".";
    return;
  }
  const cuda::CheckGpu& g = *r.gpu;
  const double base = it.item.against == "copy" ? g.copy_ms : g.cub_ms;
  it.passed = g.matching == g.cases && g.kernel_ms <= it.item.factor * base;
  char line[200];
  std::snprintf(line, sizeof line, "kernel %.3f ms against %s %.3f ms at n = %lld (limit %s x)", g.kernel_ms, it.item.against == "copy" ? "a copy" : "CUB", base,
                static_cast<long long>(g.timed_n), card::number(it.item.factor).c_str());
  it.summary = std::string(line) + (g.matching == g.cases ? "." : "; some launches on the GPU were wrong.");
}

}  // namespace

Grade grade_report(const cuda::CheckReport& r, const Rubric& rubric, const std::string& scan, const OtherScanProbe& other) {
  Grade g;
  g.scan = scan;
  g.verdict = r.verdict == "correct" && other_scan_told(r, scan) ? "wrong" : r.verdict;
  for (const RubricItem& item : rubric.items) {
    ItemResult it;
    it.item = item;
    if (source_refused(r)) {
      it.summary = "The file cannot run as asked, so nothing of it was graded.";
      for (const cuda::CheckError& e : r.errors) it.lines.push_back(card::error_line(e));
    } else if (item.check == "outputs") {
      outputs(it, r, scan);
    } else if (item.check == "no-races") {
      races(it, r);
    } else if (item.check == "no-faults") {
      faults(it, r);
    } else if (item.check == "scan") {
      scan_kind(it, r, scan, other);
    } else if (item.check == "matches") {
      matches(it, r);
    } else if (item.check == "work") {
      work(it, r);
    } else if (item.check == "gpu-time") {
      gpu_time(it, r);
    }
    if (it.passed) it.score = item.points;
    g.score += it.score;
    g.max_score += item.points;
    g.items.push_back(std::move(it));
  }
  return g;
}

}  // namespace sv::grade
