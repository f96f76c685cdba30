// A graded card in the formats graders read: Gradescope's results.json, JUnit XML, and the rubric's part
// of check's own JSON and text (docs/grading.md).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "cuda_subset/check.hpp"
#include "grade/grade.hpp"

namespace sv::grade {

// Gradescope's autograder results: top-level score, execution_time, output, output_format, visibility,
// stdout_visibility, and a test an item (name, score, max_score, status, output, output_format "md",
// visibility: "after_published" for a hidden item).
nlohmann::json gradescope_results(const cuda::CheckReport& r, const Grade& g, double seconds);

// JUnit XML: one testsuite, a testcase an item, a failure holding the card's text for a failed one.
std::string junit_xml(const cuda::CheckReport& r, const Grade& g, double seconds);

// The rubric's part of check's JSON: {title, scan, score, max_score, items: [{id, name, check, points,
// score, passed, hidden, summary, lines}]}.
nlohmann::json grade_json(const Grade& g, const Rubric& rubric);

// The rubric's part of the text card: a score line, then a line an item.
std::string grade_text(const Grade& g, const Rubric& rubric);

// The text for one item: its summary, then the card's lines.
std::string item_text(const ItemResult& it);

}  // namespace sv::grade
