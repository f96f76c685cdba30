// A rubric: the report card turned into points (docs/grading.md has the format). A JSON or TOML file
// (rubric_toml.hpp), or the default one embedded in the program (assets/grading/default_rubric.json).
#pragma once

#include <string>
#include <vector>

namespace sv::grade {

struct RubricItem {
  std::string id;     // what --only names: lowercase letters, digits and '-'
  std::string name;   // what the student reads
  std::string check;  // outputs, no-races, no-faults, scan, matches, work, gpu-time
  double points = 0;
  bool hidden = false;      // Gradescope shows it after the grades are published
  bool partial = false;     // outputs: points in proportion to the cases that are correct
  std::string algorithm;    // matches, work: a block algorithm's name (scanviz algos)
  double factor = 1;        // work: at most factor x its closed form; gpu-time: at most factor x the baseline's time
  std::string against;      // gpu-time: cub or copy
};

// A launch the rubric runs a submission with, and the scan it asks of that kernel.
struct RubricLaunch {
  std::string launch;  // NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS), as --launch
  std::string scan;    // inclusive, exclusive or either
};

struct Rubric {
  std::string source;  // the file's name, or "default rubric"
  std::string title;
  std::string scan = "either";         // the scan asked, where a launch does not say
  std::vector<RubricLaunch> launches;  // tried in order: the first whose kernel the file has
  double float_tolerance = 1;          // check's float judge: this many times the bound of the additions
  std::vector<RubricItem> items;

  double max_score() const;
  const RubricItem* find(const std::string& id) const;
};

// The checks an item may name, for messages and docs.
const std::vector<std::string>& rubric_checks();

// Parses a rubric's text, TOML where rubric_is_toml says so, else JSON; `name` is the file's name in
// errors. Throws std::invalid_argument with one line naming the file (and in TOML its line) and the
// problem ("rubric r.json: items[2]: unknown check 'no-race' (outputs, ...)", "rubric r.toml:14: ...").
Rubric parse_rubric(const std::string& text, const std::string& name);

// The rubric at `path`, or the embedded default for an empty path.
Rubric load_rubric(const std::string& path);

}  // namespace sv::grade
