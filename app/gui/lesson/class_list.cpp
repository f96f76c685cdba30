// A class of submissions and its grading a submission at a time (class_list.hpp).
#include "gui/lesson/class_list.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/files.hpp"
#include "grade/class_table.hpp"
#include "grade/class_table_read.hpp"
#include "grade/grade.hpp"
#include "grade/rubric.hpp"
#include "kernel_run.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

namespace {

// An entry for the file at `path`, listed as `name`, its text read now (so that a later save shows as
// the followed file changing, and an unreadable one says why in the list).
ClassEntry read_entry(const std::string& name, const std::string& path) {
  ClassEntry e;
  e.name = name;
  e.path = path;
  try {
    e.kernel = make_own_kernel(name, read_kernel_source(path));
  } catch (const std::exception& x) {
    e.problem = x.what();
  }
  return e;
}

// The card's first finding in one line, as the class table puts it first: a fault, else a race, else
// a wrong output.
std::string first_finding(const cuda::CheckReport& r) {
  for (const cuda::CheckError& e : r.errors)
    if (e.severity != "warning") return grade::fault_finding(e.kind, e.line, e.message);
  if (!r.hazards.empty()) {
    const cuda::CheckHazard& h = r.hazards.front();
    return grade::race_finding(h.kind, h.buffer, h.memory, h.line_write, h.line_read ? h.line_read : h.line_second);
  }
  for (const cuda::CheckCase& c : r.cases)
    if (c.outcome == "wrong") return grade::wrong_output_finding(c.n, c.detail);
  return "-";
}

void record_grade(ClassEntry& e, KernelGrade g) {
  static const grade::Rubric rubric = grade::load_rubric("");
  const grade::Grade points = grade::grade_report(g.report, rubric, rubric.scan);
  e.verdict = points.verdict;
  e.score = points.score;
  e.max_score = points.max_score;
  e.first = first_finding(g.report);
  e.grade = std::move(g);
}

}  // namespace

std::size_t ClassList::graded() const {
  return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [](const ClassEntry& e) { return !e.verdict.empty(); }));
}

std::size_t ClassList::count(const std::string& verdict) const {
  return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [&](const ClassEntry& e) { return e.verdict == verdict; }));
}

std::string class_summary(const ClassList& list) {
  return list.source + ": " + std::to_string(list.entries.size()) + " submissions, " + std::to_string(list.graded()) + " graded: " +
         std::to_string(list.count("correct")) + " correct, " + std::to_string(list.count("wrong")) + " wrong, " +
         std::to_string(list.count("error")) + " error";
}

std::string entry_state(const ClassList& list, std::size_t i, const std::optional<GradeProgress>& progress) {
  const std::string& verdict = list.entries[i].verdict;
  if (verdict == "correct") return verdict;
  if (verdict == "wrong" || verdict == "error") return verdict == "wrong" ? "WRONG" : "ERROR";
  if (static_cast<int>(i) != list.grading) return "waiting";
  return progress && progress->planned ? "checking " + std::to_string(progress->run) + "/" + std::to_string(progress->planned) : "checking";
}

ClassList class_from_folder(const std::string& folder) {
  std::vector<fs::path> found;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, error); !error && it != fs::end(it);
       it.increment(error))
    if (it->is_regular_file() && it->path().extension() == ".cu") found.push_back(it->path());
  if (error) throw std::invalid_argument(folder + ": " + error.message());
  if (found.empty()) throw std::invalid_argument(folder + ": a folder without .cu files");
  std::sort(found.begin(), found.end());
  ClassList list;
  list.source = folder;
  for (const fs::path& p : found) list.entries.push_back(read_entry(p.lexically_relative(folder).generic_string(), p.string()));
  return list;
}

ClassList class_from_table(const std::string& csv) {
  const std::vector<grade::ClassRow> rows = grade::read_class_csv(read_whole_file(csv, 64 << 20, "a class table"), csv);
  const fs::path beside = fs::path(csv).parent_path();
  ClassList list;
  list.source = csv;
  for (const grade::ClassRow& r : rows) {
    const fs::path written(r.file);
    const fs::path there = written.is_absolute() || !fs::exists(beside / written) ? written : beside / written;
    ClassEntry e;
    if (fs::exists(there)) {
      e = read_entry(r.file, there.string());
    } else {
      e.name = r.file;
      e.problem = "not found beside the table nor here";
    }
    e.verdict = r.verdict;
    e.score = r.score;
    e.max_score = r.max_score;
    e.first = r.first;
    list.entries.push_back(std::move(e));
  }
  return list;
}

ClassList open_class_path(const std::string& path) {
  if (fs::is_directory(path)) return class_from_folder(path);
  if (fs::path(path).extension() == ".csv") return class_from_table(path);
  throw std::invalid_argument(path + ": neither a folder of .cu files nor a class table (.csv)");
}

ClassList class_from_files(const std::vector<std::string>& paths, bool follow, const std::string& source) {
  ClassList list;
  list.source = source;
  for (const std::string& p : paths) {
    list.entries.push_back(read_entry(fs::path(p).filename().string(), p));
    if (!follow) list.entries.back().path.clear();
  }
  return list;
}

bool grade_next(ClassList& list, KernelChecker& checker, const std::string& launch, double budget_ms) {
  checker.work(budget_ms);
  bool arrived = false;
  if (std::optional<KernelGrade> g = checker.take(); g && list.grading >= 0) {
    record_grade(list.entries[static_cast<std::size_t>(list.grading)], std::move(*g));
    list.grading = -1;
    arrived = true;
  }
  if (checker.busy()) return arrived;
  for (std::size_t i = 0; i < list.entries.size(); ++i) {
    ClassEntry& e = list.entries[i];
    if (e.verdict.empty() && !e.kernel) {  // unreadable: an error without a card
      e.verdict = "error";
      e.first = e.problem;
      arrived = true;
    } else if (e.verdict.empty()) {
      list.grading = static_cast<int>(i);
      checker.request(e.kernel, launch);
      break;
    }
  }
  return arrived;
}

void grade_all(ClassList& list, KernelChecker& checker, const std::string& launch) {
  for (;;) {
    grade_next(list, checker, launch, 0);
    if (list.grading < 0 && !checker.busy()) return;
    // A grade asked for a class opened before this one has no entry here: it is dropped.
    if (std::optional<KernelGrade> g = checker.wait(); g && list.grading >= 0) {
      record_grade(list.entries[static_cast<std::size_t>(list.grading)], std::move(*g));
      list.grading = -1;
    }
  }
}

std::optional<ClassPick> pick_entry(ClassList& list, int i) {
  if (list.entries.empty()) return std::nullopt;
  list.selected = std::clamp(i, 0, static_cast<int>(list.entries.size()) - 1);
  const ClassEntry& e = list.entries[static_cast<std::size_t>(list.selected)];
  if (!e.kernel) return std::nullopt;
  return ClassPick{e.kernel, e.path, e.grade};
}

}  // namespace sv::gui
