// The page's hidden DOM mirror as HTML, made from what the window shows (gui/platform/mirror_shown.hpp):
// the lesson as headings, a list of its options, its step's narration and the buffers' values as a
// table whose cells say their marks in words (race, wrong and the value expected), and the report
// card of a kernel of one's own as headings, a table of its cases and lists of its hazards and faults,
// and a class of submissions as a table.
// Pure functions of their arguments, so they are tested natively (tests/web/test_mirror_html.cpp).
#pragma once

#include <string>
#include <string_view>

#include "cuda_subset/check.hpp"
#include "gui/platform/mirror_shown.hpp"

namespace sv::web {

// `text` with &, <, >, " and ' as HTML's character references.
std::string html_escape(std::string_view text);
// <tag>text</tag>, the text escaped.
std::string html_element(const char* tag, const std::string& text);

// The lesson: its title (h1), options, step (h2), narration, the buffers at this step (a table of a
// row a cell index and a column a buffer), the step's races and, at the last step, the result.
std::string lesson_html(const gui::MirrorShown& m);

// The report card: its verdict (h2, "Report card: WRONG", or how far the check got), its headline
// and cases, each case (a table), each hazard with both lines and both threads, each fault and why
// the outputs are wrong (lists). `report` may be null: nothing graded yet.
std::string card_html(const cuda::CheckReport* report, const std::string& state);

// The class panel's class: its name (h2), its summary, and a table of its submissions with each one's
// verdict, score and first finding, the one open marked.
std::string class_html(const gui::MirrorClass& c);

}  // namespace sv::web
