// The class table's CSV (`check --summary FILE.csv`, class_table.hpp) read back: its first section, a
// row a submission, so that the window can list a class graded on the command line without grading
// it again.
#pragma once

#include <string>
#include <vector>

#include "grade/class_table.hpp"

namespace sv::grade {

// The submissions' rows (file, verdict, score, max_score, first finding, matches, seconds) of a class
// CSV's text. Throws std::invalid_argument with one line ("NAME:LINE: ...") for text that is not one.
std::vector<ClassRow> read_class_csv(const std::string& text, const std::string& name);

}  // namespace sv::grade
