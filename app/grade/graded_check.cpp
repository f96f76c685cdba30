// One submission graded (graded_check.hpp).
#include "grade/graded_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "check_gpu.hpp"
#include "check_notes.hpp"
#include "check_report.hpp"
#include "core/files.hpp"
#include "cuda_subset/parser.hpp"
#include "grade/card_text.hpp"
#include "grade/grade.hpp"
#include "grade/grade_formats.hpp"
#include "kernel_run.hpp"
#include "run/launch.hpp"
#include "run_flags.hpp"

namespace sv {

namespace {

int verdict_code(const std::string& verdict) { return verdict == "correct" ? 0 : verdict == "wrong" ? 1 : 2; }

// A test of a class's grading needs a submission that crashes its process: where this variable is set
// and the file's path contains its value, the check aborts as a crash of the interpreter would.
void abort_for_test(const std::string& file) {
  const char* marker = std::getenv("SCANVIZ_CHECK_TEST_ABORT");
  if (marker && *marker && file.find(marker) != std::string::npos) std::abort();
}

}  // namespace

std::string check_format(const CheckOptions& o) {
  std::string format = o.format.empty() ? (o.json ? "json" : "text") : o.format;
  if (std::find_if(std::begin(kCheckFormats), std::end(kCheckFormats), [&](const char* f) { return format == f; }) == std::end(kCheckFormats))
    throw std::invalid_argument("--format: unknown format '" + format + "' (text, json, gradescope, junit)");
  if (o.json && format != "json") throw std::invalid_argument("--json and --format " + format + ": choose one");
  return format;
}

std::optional<grade::RubricLaunch> rubric_launch(const grade::Rubric& rubric, const std::string& file, const std::string& source,
                                                 const cuda::IncludeReader& include) {
  for (const grade::RubricLaunch& l : rubric.launches) {
    const LaunchSpec spec = parse_launch(l.launch);
    try {
      // Two launches of one kernel name (a course's variants) are told apart by their arguments.
      if (cuda::parse_kernel(source, file, {}, spec.kernel, include).params.size() != spec.args.size()) continue;
    } catch (const cuda::KernelError& e) {
      if (std::string(e.what()).find("not a kernel of this file") != std::string::npos) continue;
    }
    return l;  // its kernel is there, or the file does not parse: check says why with this launch
  }
  return std::nullopt;
}

int graded_check(const CheckOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string format = check_format(o);
  const grade::Rubric rubric = grade::load_rubric(o.rubric);
  if (!o.only.empty() && !rubric.find(o.only)) {
    std::string ids;
    for (const grade::RubricItem& i : rubric.items) ids += (ids.empty() ? "" : ", ") + i.id;
    throw std::invalid_argument("--only " + o.only + ": no such item in the " + rubric.source + " (" + ids + ")");
  }
  if (o.block < 0 || o.block > 1024) throw std::invalid_argument("--block " + std::to_string(o.block) + " is outside 1..1024");
  if (o.block && !o.launch.empty()) throw std::invalid_argument("--block and --launch: the launch says the block");
  const std::string& file = o.files.front();
  const std::string source = read_kernel_source(file);
  abort_for_test(file);

  cuda::CheckOptions c;
  c.block = o.block;
  c.include = kernel_include_reader(file);
  c.float_tolerance = rubric.float_tolerance;
  if (!o.sizes.empty()) c.sizes = cli::parse_sizes(o.sizes, 20);  // a kernel of your own's largest n
  std::string scan = rubric.scan;
  if (!o.launch.empty()) {
    c.launch = parse_launch(o.launch);
  } else if (!o.block) {
    if (const auto l = rubric_launch(rubric, file, source, c.include)) {
      c.launch = parse_launch(l->launch);
      scan = l->scan;
    }
  }
  if (o.exclusive) scan = "exclusive";
  c.exclusive = scan == "exclusive";
  cuda::CheckReport r = cuda::check_kernel(file, source, c);
  if (o.gpu) check_on_gpu(file, source, r);
  // Asked for an exclusive scan and judged as one, a kernel that gives none: does it give the inclusive?
  const grade::OtherScanProbe inclusive_instead = [&] {
    cuda::CheckOptions probe = c;
    probe.exclusive = false;
    probe.sizes = {r.capacity};
    const cuda::CheckReport p = cuda::check_kernel(file, source, probe);
    return !p.exclusive && std::any_of(p.cases.begin(), p.cases.end(), [](const cuda::CheckCase& k) { return k.outcome == "correct"; });
  };
  grade::Grade g = grade::grade_report(r, rubric, scan, inclusive_instead);
  if (!o.only.empty()) {
    std::erase_if(g.items, [&](const grade::ItemResult& it) { return it.item.id != o.only; });
    g.score = g.items.front().score;
    g.max_score = g.items.front().item.points;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::ostringstream text;
  if (format == "json") {
    nlohmann::json j = report_json(r);
    j["rubric"] = grade::grade_json(g, rubric);
    text << j.dump(2) << "\n";
  } else if (format == "gradescope") {
    text << grade::gradescope_results(r, g, seconds).dump(2) << "\n";
  } else if (format == "junit") {
    text << grade::junit_xml(r, g, seconds);
  } else if (!o.only.empty()) {
    text << card::headline(r) << "\n" << grade::grade_text(g, rubric);
    for (const std::string& line : g.items.front().lines) text << "  " << line << "\n";
  } else {
    print_report(text, r, block_note(r, source, !o.launch.empty()));
    if (!o.rubric.empty()) text << grade::grade_text(g, rubric);
  }
  if (o.out.empty() || is_standard_stream(o.out)) std::cout << text.str();
  else write_file_atomically(o.out, text.str());
  if (!o.only.empty()) return g.items.front().passed ? 0 : 1;
  return verdict_code(g.verdict);
}

}  // namespace sv
