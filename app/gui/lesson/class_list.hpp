// A class of submissions in the window: the .cu files of a folder, the rows of a class table (the CSV
// `scanviz check FOLDER --summary` writes) or several files dropped at once, each with its verdict.
// The window grades those without one in the background, a submission at a time in the list's order,
// with the same report card as a kernel of one's own (kernel_check.hpp) and the default rubric's
// points; a class table's rows keep the verdicts graded on the command line. Picking an entry opens it
// as the lesson's own kernel.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/lesson/kernel_check.hpp"
#include "gui/lesson/own_kernel.hpp"

namespace sv::gui {

struct ClassEntry {
  std::string name;                       // as listed: its path under the folder, the table's file, the dropped file's name
  std::string path;                       // the file to follow once opened ("" for a dropped copy, gone once read)
  std::shared_ptr<const OwnKernel> kernel;  // its text, named as listed; null when it could not be read
  std::string problem;                    // why it cannot be opened (not found, unreadable)
  std::string verdict;                    // correct, wrong, error; "" until graded
  double score = 0, max_score = 0;        // the rubric's points
  std::string first;                      // the first finding, one line ("-" for none)
  std::optional<KernelGrade> grade;       // the report card graded here (none for a table's row)
};

struct ClassList {
  std::string source;  // what was opened: the folder, the table, "3 dropped files"
  std::vector<ClassEntry> entries;
  int selected = -1;   // the entry opened last (-1: none yet)
  int grading = -1;    // the entry being graded (-1: none)

  std::size_t graded() const;
  std::size_t count(const std::string& verdict) const;
};

// The class in a line, as the panel heads its list: "3 dropped files: 3 submissions, 2 graded: 1
// correct, 1 wrong, 0 error".
std::string class_summary(const ClassList& list);

// Entry `i`'s verdict in a word, as its row says it: "correct", "WRONG", "ERROR", how far its check
// got while it is graded (`progress`: the class checker's), "waiting" before.
std::string entry_state(const ClassList& list, std::size_t i, const std::optional<GradeProgress>& progress);

// Every .cu file under `folder` (all depths, sorted), each read; throws std::invalid_argument naming a
// folder without any.
ClassList class_from_folder(const std::string& folder);

// The rows of the class table at `csv`, with their verdicts; each file is looked for beside the table,
// then as written (relative to the working folder). Throws std::invalid_argument with one line.
ClassList class_from_table(const std::string& csv);

// A folder or a class table (.csv), told apart by what the path is.
ClassList open_class_path(const std::string& path);

// The files at `paths`, listed by their names and read now (the page's dropped copies are removed once
// read); `follow`: each keeps its path, to follow once opened.
ClassList class_from_files(const std::vector<std::string>& paths, bool follow, const std::string& source);

// Once a frame: the grade in progress taken when ready (true then) and the next entry without a
// verdict sent to `checker`, launched as `launch` says; without threads the checker runs `budget_ms`
// of it here first.
bool grade_next(ClassList& list, KernelChecker& checker, const std::string& launch, double budget_ms);

// Grades every entry left, waiting (a counted run's last frame, a test).
void grade_all(ClassList& list, KernelChecker& checker, const std::string& launch);

// What opening entry `i` gives the lesson: its kernel, the path to follow and its grade if it has one.
struct ClassPick {
  std::shared_ptr<const OwnKernel> kernel;
  std::string follow;
  std::optional<KernelGrade> grade;
};

// Selects entry `i` (clamped to the list) and returns what it opens; nullopt for an entry that cannot
// be opened (its `problem` says why) or an empty list.
std::optional<ClassPick> pick_entry(ClassList& list, int i);

}  // namespace sv::gui
