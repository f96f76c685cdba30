// `scanviz check FILE.cu`: one submission's report card, graded by a rubric and written in the format
// asked (text, json, gradescope, junit).
#pragma once

#include <optional>
#include <string>

#include "cuda_subset/check.hpp"
#include "grade/check_options.hpp"
#include "grade/rubric.hpp"

namespace sv {

// The formats of one submission's card.
inline constexpr const char* kCheckFormats[] = {"text", "json", "gradescope", "junit"};

// The format --format and --json ask for; throws std::invalid_argument on an unknown one or a conflict.
std::string check_format(const CheckOptions& o);

// The rubric's launch for this file: the first of its launches whose kernel the file has, with as many
// parameters as the launch has arguments (none: the file runs as check runs a file without --launch).
std::optional<grade::RubricLaunch> rubric_launch(const grade::Rubric& rubric, const std::string& file, const std::string& source,
                                                 const cuda::IncludeReader& include);

// Grades the file and writes its card; returns the exit code: 0 correct, 1 wrong, 2 error (with --only:
// 0 the item passed, 1 it failed). Bad options, a bad rubric or an unreadable file throw before anything
// is written.
int graded_check(const CheckOptions& o);

}  // namespace sv
