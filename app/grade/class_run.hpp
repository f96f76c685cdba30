// `scanviz check SUBMISSIONS...`: a class graded at once. Each submission is checked by the program
// itself in a process of its own (/proc/self/exe check FILE --format json), as many at a time as
// --jobs says, so a submission that crashes, hangs past --timeout or exhausts its budgets is its own
// row of the table and never the end of the batch.
#pragma once

#include <string>
#include <vector>

#include "grade/check_options.hpp"

namespace sv {

// Several files, or a folder: a class.
bool is_class(const CheckOptions& o);

// The submissions: each file as given, and the .cu files under each folder (all depths), in order.
std::vector<std::string> class_submissions(const std::vector<std::string>& args);

// Grades the class, prints its table (Markdown) and writes --summary; returns 0 when every submission
// has its row, 2 for bad options (before any is graded).
int grade_class(const CheckOptions& o);

}  // namespace sv
