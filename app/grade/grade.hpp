// A report card graded by a rubric: each item's points, pass or fail, and the card's lines that
// explain it to the student (the hazard with both lines and threads, the wrong output and why, the
// fault and its line).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuda_subset/check.hpp"
#include "grade/rubric.hpp"

namespace sv::grade {

struct ItemResult {
  RubricItem item;
  double score = 0;
  bool passed = false;
  std::string summary;             // one sentence: what was found
  std::vector<std::string> lines;  // the card's lines behind it
};

struct Grade {
  std::string verdict;  // the card's, or wrong where the scan asked differs from the one computed
  std::string scan;     // the scan asked: inclusive, exclusive or either
  double score = 0, max_score = 0;
  std::vector<ItemResult> items;
};

// Whether the kernel computes the other scan than the one asked (the scan item's explanation); asked
// only where no case gives the scan asked.
using OtherScanProbe = std::function<bool()>;

// `scan`: the scan asked of this submission (its launch's, else the rubric's).
Grade grade_report(const cuda::CheckReport& r, const Rubric& rubric, const std::string& scan, const OtherScanProbe& other = {});

}  // namespace sv::grade
