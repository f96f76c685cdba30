// `scanviz check FILE.cu`: the report card of a scan kernel of one's own, graded, or a class of them,
// each in a process of its own (docs/cli.md, docs/grading.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

// One file: prints its report card, graded, and returns its exit code (grade/graded_check.hpp); a class
// (several files, or a folder): grades each in a process of its own (grade/class_run.hpp). A source
// that cannot be read, a bad rubric or bad options are one line and 2.
Command add_check(CLI::App& app);

}  // namespace sv::cli
