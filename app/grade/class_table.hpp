// The class table (`check --summary FILE.csv|FILE.md`): a row a submission (verdict, score, the first
// finding), then across the class the findings counted by kind and by the source line they are at, the
// rubric items failed, the algorithms matched and the spread of GPU times where check --gpu measured them.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sv::grade {

// One submission as its own process ended: its card (check's JSON with the rubric) or why there is none.
struct Submission {
  std::string file;
  std::string source;   // the file's text, for the lines findings name (empty when unread)
  nlohmann::json card;  // null when the process gave none
  std::string failure;  // why there is no card: "crashed: ...", "timed out after ...", the error line
  double seconds = 0;
};

struct Finding {
  std::string kind;     // "race (shared memory)", "out-of-bounds", "wrong output", ...
  std::string pattern;  // the kind with the source text of its line(s), blanks collapsed
};

struct ClassRow {
  std::string file, verdict;  // correct, wrong, error
  double score = 0, max_score = 0;
  std::string first;          // the first finding, one line ("-" for none)
  std::string matches;        // the algorithm its work and steps match ("-" for none)
  std::vector<Finding> findings;        // each kind and pattern once
  std::vector<std::string> failed_items;
  double seconds = 0;
  double gpu_ms = -1;  // the kernel's time on the GPU (check --gpu), -1 where not measured
};

ClassRow class_row(const Submission& s);

// A row's first finding in one line, as the table and the window's class list (which reads the card
// itself, not its JSON) both write it: a fault, a race, a wrong output.
std::string fault_finding(const std::string& kind, std::uint32_t line, const std::string& message);
std::string race_finding(const std::string& kind, const std::string& buffer, const std::string& memory, std::uint32_t line,
                         std::uint32_t other_line);
std::string wrong_output_finding(std::int64_t n, const std::string& detail);

// The table as CSV: sections separated by an empty line, each with its header line.
std::string class_csv(const std::vector<ClassRow>& rows);
// The table as Markdown: a heading and a table a section.
std::string class_markdown(const std::vector<ClassRow>& rows, const std::string& title);

}  // namespace sv::grade
