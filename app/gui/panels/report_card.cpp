// The report card (report_card.hpp), drawn from a cuda::CheckReport.
#include "gui/panels/report_card.hpp"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "algorithms.hpp"
#include "gui/draw/text_colours.hpp"

namespace sv::gui {

namespace {

// A row of wrapped text that is a button (a click, or Enter or Space on it from the keyboard);
// returns true when pressed. Laid in `laid` as "report_KIND_N".
bool entry(const std::string& text, int id, const char* kind, ReportCardAction& a, const ReportCardKeys& keys) {
  ImGui::PushID(id);
  const float wrap = ImGui::GetContentRegionAvail().x;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool selected = id == keys.selected;
  bool pressed = ImGui::Selectable("##entry", selected, 0, ImVec2(0, size.y));
  if (selected && keys.moved != 0) ImGui::SetScrollHereY(0.5f);
  pressed |= selected && keys.enter;
  ImGui::GetWindowDrawList()->AddText(nullptr, 0, at, ImGui::GetColorU32(ImGuiCol_Text), text.c_str(), nullptr, wrap);
  const ImVec2 a0 = ImGui::GetItemRectMin(), a1 = ImGui::GetItemRectMax();
  const int nth = static_cast<int>(std::count_if(a.laid.begin(), a.laid.end(), [&](const auto& l) {
    return l.first.rfind(std::string("report_") + kind + "_", 0) == 0;
  }));
  a.laid.push_back({std::string("report_") + kind + "_" + std::to_string(nth), LaidRect{a0.x, a0.y, a1.x - a0.x, a1.y - a0.y}});
  ImGui::PopID();
  return pressed;
}

void heading(const char* text) {
  ImGui::Separator();
  ImGui::TextDisabled("%s", text);
}

std::string case_text(const cuda::CheckCase& c) {
  return "n = " + std::to_string(c.n) + (c.grid > 1 ? " (" + std::to_string(c.grid) + " blocks)" : "") + ", " + c.input +
         ", " + c.schedule + ", lockstep " + std::to_string(c.warp) + ": " + c.outcome + (c.detail.empty() ? "" : ": " + c.detail);
}

void work_and_steps(const cuda::CheckReport& r) {
  if (!r.work || !r.steps) return;
  ImGui::TextWrapped("Work %lld operations, %lld steps at n = %lld: %s", static_cast<long long>(*r.work),
                     static_cast<long long>(*r.steps), static_cast<long long>(r.work_n),
                     r.matches ? ("matches " + *r.matches).c_str() : "matches no known algorithm");
  if (!ImGui::BeginTable("##closed forms", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("algorithm");
  ImGui::TableSetupColumn("operations");
  ImGui::TableSetupColumn("steps");
  ImGui::TableHeadersRow();
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy || a.warp_level) continue;
    const auto f = closed_form(a.name, r.work_n, r.exclusive);
    if (!f) continue;
    const bool match = r.matches && *r.matches == a.name;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (match) ImGui::TextColored(good_text(), "%s", std::string(a.name).c_str());
    else ImGui::TextUnformatted(std::string(a.name).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(f->operations));
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(f->steps));
  }
  ImGui::EndTable();
}

}  // namespace

std::vector<HazardGroup> group_hazards(const cuda::CheckReport& r) {
  std::vector<HazardGroup> groups;
  std::map<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t> at;
  for (const cuda::CheckHazard& h : r.hazards) {
    const auto key = std::make_tuple(h.kind, h.buffer, h.line_write, h.line_read, h.line_second);
    const auto [it, fresh] = at.emplace(key, groups.size());
    if (fresh) groups.push_back({&h, 0});
    ++groups[it->second].count;
  }
  return groups;
}

std::string hazard_text(const cuda::CheckHazard& h) {
  return h.kind + " on " + h.buffer + "[" + std::to_string(h.index) + "]: " + cuda::hazard_accesses(h) + "; step " + std::to_string(h.step) +
         " (n = " + std::to_string(h.n) + ", " + h.schedule + ", lockstep " + std::to_string(h.warp) + ")";
}

std::string verdict_word(const std::string& verdict) { return verdict == "correct" ? "CORRECT" : verdict == "wrong" ? "WRONG" : "ERROR"; }

ReportCardAction report_card(const cuda::CheckReport* report, const std::string& state, const std::string& note, ReportCardKeys& keys) {
  ReportCardAction action;
  if (keys.moved != 0) keys.selected = std::clamp(keys.selected + keys.moved, 0, std::max(0, keys.entries - 1));
  action.check = ImGui::Button("Check");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("grade the kernel as last run: many sizes, inputs, schedules and lockstep widths");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", state.c_str());
  if (!report) {
    keys.entries = 0;
    return action;
  }
  const cuda::CheckReport& r = *report;
  if (!r.verdict.empty()) ImGui::TextColored(r.verdict == "correct" ? good_text() : bad_text(), "%s", verdict_word(r.verdict).c_str());
  else ImGui::TextDisabled("so far");  // graded part way: what the cases run found
  if (!r.kernel.empty()) {
    ImGui::SameLine();
    ImGui::TextWrapped("%s: blocks of %d threads scanning %lld, %s scan%s", r.kernel.c_str(), r.block,
                       static_cast<long long>(r.capacity), r.exclusive ? "exclusive" : "inclusive",
                       r.exclusive_told ? " (told from its outputs)" : "");
  }
  if (!r.launch.empty()) ImGui::TextWrapped("launch: %s", r.launch.c_str());
  if (!note.empty()) ImGui::TextWrapped("%s", note.c_str());
  int id = 0;
  if (!r.cases.empty()) {
    int good = 0;
    for (const cuda::CheckCase& c : r.cases) good += c.outcome == "correct";
    ImGui::Text("Cases: %d of %zu correct", good, r.cases.size());
    if (good < static_cast<int>(r.cases.size()) && ImGui::TreeNode("##cases", "the %zu that are not", r.cases.size() - good)) {
      for (const cuda::CheckCase& c : r.cases)
        if (c.outcome != "correct" && entry(case_text(c), id++, "case", action, keys) && c.grid == 1) action.pick = ReportPick{{}, 0, c.n, c.schedule, c.warp};
      ImGui::TreePop();
    }
  }
  if (!r.errors.empty()) heading("Errors");
  for (const cuda::CheckError& e : r.errors)
    if (entry(e.kind + (e.line ? " at line " + std::to_string(e.line) : "") + ": " + e.message, id++, "error", action, keys))
      action.pick = ReportPick{{e.line}, -1, 0, {}, 0};
  const std::vector<HazardGroup> groups = group_hazards(r);
  if (!groups.empty()) heading("Hazards");
  for (const HazardGroup& g : groups) {
    const cuda::CheckHazard& h = *g.first;
    const std::string more = g.count > 1 ? " and " + std::to_string(g.count - 1) + " more like it" : "";
    if (entry(hazard_text(h) + more, id++, "hazard", action, keys))
      action.pick = ReportPick{{h.line_write, h.kind == "WAW" ? h.line_second : h.line_read}, h.step, h.n, h.schedule, h.warp};
  }
  if (!r.diagnoses.empty()) heading("Why an output is wrong");
  for (const cuda::CheckError& d : r.diagnoses)
    if (entry((d.line ? "line " + std::to_string(d.line) + ": " : std::string()) + d.message, id++, "why", action, keys))
      action.pick = ReportPick{{d.line}, -1, 0, {}, 0};
  if (r.work && r.steps) heading("Work and steps");
  work_and_steps(r);
  keys.entries = id;
  keys.moved = 0;
  keys.enter = false;
  return action;
}

}  // namespace sv::gui
