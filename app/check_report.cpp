// `scanviz check`: the report card of cuda_subset/check.hpp as text or JSON.
#include "check_report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <map>

#include "algorithms.hpp"
#include "check_gpu.hpp"
#include "check_notes.hpp"
#include "cuda_subset/check.hpp"
#include "grade/card_text.hpp"

namespace sv {

nlohmann::json report_json(const cuda::CheckReport& r) {
  nlohmann::json j;
  j["format"] = "scanviz-check";
  j["file"] = r.file;
  j["kernel"] = r.kernel;
  j["kernels"] = r.kernels;
  j["launch"] = r.launch;
  j["verdict"] = r.verdict;
  j["block"] = r.block;
  j["elements_per_block"] = r.capacity;
  j["exclusive"] = r.exclusive;
  j["exclusive_told_from_outputs"] = r.exclusive_told;
  j["schedules"] = r.schedules;
  j["warps"] = r.warps;
  if (!r.printed.empty()) j["printf"] = {{"case", r.printed_case}, {"lines", r.printed}};
  j["cases"] = nlohmann::json::array();
  for (const cuda::CheckCase& c : r.cases)
    j["cases"].push_back({{"n", c.n}, {"blocks", c.grid}, {"schedule", c.schedule}, {"warp", c.warp}, {"input", c.input},
                          {"outcome", c.outcome}, {"detail", c.detail}});
  j["hazards"] = nlohmann::json::array();
  for (const cuda::CheckHazard& h : r.hazards)
    j["hazards"].push_back({{"kind", h.kind},
                            {"buffer", h.buffer},
                            {"memory", h.memory},
                            {"index", h.index},
                            {"line_write", h.line_write},
                            {"line_read", h.line_read ? nlohmann::json(h.line_read) : nlohmann::json(nullptr)},
                            {"line_second", h.line_second},
                            {"threads", {h.thread_first, h.thread_second}},
                            {"blocks", h.block_first >= 0 ? nlohmann::json{h.block_first, h.block_second} : nlohmann::json(nullptr)},
                            {"step", h.step},
                            {"n", h.n},
                            {"schedule", h.schedule},
                            {"warp", h.warp}});
  j["errors"] = nlohmann::json::array();
  for (const cuda::CheckError& e : r.errors)
    j["errors"].push_back({{"kind", e.kind}, {"line", e.line}, {"column", e.column}, {"message", e.message}, {"severity", e.severity}});
  j["diagnoses"] = nlohmann::json::array();
  for (const cuda::CheckError& d : r.diagnoses) j["diagnoses"].push_back({{"line", d.line}, {"message", d.message}});
  j["work"] = r.work ? nlohmann::json(*r.work) : nlohmann::json(nullptr);
  j["steps"] = r.steps ? nlohmann::json(*r.steps) : nlohmann::json(nullptr);
  j["work_n"] = r.work_n;
  j["matches"] = r.matches ? nlohmann::json(*r.matches) : nlohmann::json(nullptr);
  j["float_judge"] = r.float_judge.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.float_judge);
  if (r.gpu) {
    const cuda::CheckGpu& g = *r.gpu;
    nlohmann::json gj = {{"ran", g.ran},       {"note", g.note},           {"device", g.device},      {"cases", g.cases},
                         {"matching", g.matching}, {"own_block", g.own_block}, {"own_cases", g.own_cases}};
    gj["mismatches"] = nlohmann::json::array();
    for (const cuda::CheckCase& c : g.mismatches) gj["mismatches"].push_back({{"n", c.n}, {"blocks", c.grid}, {"input", c.input}, {"detail", c.detail}});
    gj["time"] = g.timed ? nlohmann::json{{"n", g.timed_n}, {"blocks", g.timed_grid}, {"block", g.timed_block}, {"kernel_ms", g.kernel_ms},
                                          {"cub_ms", g.cub_ms}, {"copy_ms", g.copy_ms}}
                         : nlohmann::json(nullptr);
    j["gpu"] = gj;
  }
  return j;
}

namespace {

void print_gpu(std::ostream& out, const cuda::CheckGpu& g) {
  if (!g.ran) {
    out << "gpu: " << g.note << "\n";
    return;
  }
  out << "gpu (" << g.device << ", nvcc): " << g.matching << " of " << g.cases << " launches match the reference";
  if (g.own_block)
    out << " (" << g.own_cases << " of them in blocks of " << g.own_block << " threads, the file's own)";
  out << (g.note.empty() ? "" : "; " + g.note) << "\n";
  for (const cuda::CheckCase& c : g.mismatches)
    out << "  wrong on the GPU: n = " << c.n << " (" << c.grid << (c.grid == 1 ? " block" : " blocks") << "), " << c.input << ": " << c.detail << "\n";
  if (g.timed) {
    char line[200];
    std::snprintf(line, sizeof line, "  time at n = %lld (%lld blocks of %d threads): kernel %.3f ms, CUB %.3f ms, copy %.3f ms (medians)\n",
                  static_cast<long long>(g.timed_n), static_cast<long long>(g.timed_grid), g.timed_block, g.kernel_ms, g.cub_ms, g.copy_ms);
    out << line;
  }
}

}  // namespace

void print_report(std::ostream& out, const cuda::CheckReport& r, const std::string& note) {
  out << card::headline(r) << "\n";
  if (!r.launch.empty()) out << "launch: --launch '" << r.launch << "'\n";
  if (!note.empty()) out << "note: " << note << "\n";
  if (!r.cases.empty()) {
    out << card::cases_line(r) << "\n";
    if (!r.float_judge.empty()) out << "  floats: " << r.float_judge << "\n";
    int shown = 0;
    for (const cuda::CheckCase& c : r.cases)
      if (c.outcome == "wrong" && shown++ < 5) out << "  " << card::case_line(c) << "\n";
  }
  if (!r.printed.empty()) {  // printf's lines belong to the card, not to the terminal between its lines
    out << "printf (" << r.printed_case << ", the first " << r.printed.size() << (r.printed.size() == 1 ? " line" : " lines") << "):\n";
    for (const std::string& line : r.printed) out << "  " << line << "\n";
  }
  for (const cuda::CheckError& e : r.errors) out << card::error_line(e) << "\n";
  for (const cuda::CheckHazard& h : r.hazards) out << card::hazard_line(h) << "\n";
  for (const cuda::CheckError& d : r.diagnoses) out << card::why_line(d) << "\n";
  if (r.work && r.steps) {
    out << card::work_line(r) << "\n";
    for (const AlgorithmInfo& a : block_algorithms()) {
      if (a.racy || a.warp_level) continue;
      if (const auto f = closed_form(a.name, r.work_n, r.exclusive))
        out << "  " << a.name << ": " << f->operations << " operations (" << a.work << "), " << f->steps << " steps (" << a.steps << ")\n";
    }
  }
  if (r.gpu) print_gpu(out, *r.gpu);
}

}  // namespace sv
