// The GPU timing panel: a device-wide algorithm, CUB and the copy measured on a background thread,
// or a bench table loaded.
#include "gui/panels/timing_panel.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <chrono>
#include <stdexcept>

#include "chart.hpp"
#include "core/files.hpp"
#include "core/limits.hpp"
#include "device/device_options.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/plot.hpp"

namespace sv::gui {

namespace {
// The chart's height, in ems, between what leaves the table whole and what it needs to be read.
constexpr float kMinChartEm = 10, kMaxChartEm = 18;
}  // namespace

std::vector<std::size_t> sorted_rows(const BenchResult& table, int column, bool descending) {
  std::vector<std::size_t> order(table.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (column < 0 || column > 6) return order;
  auto key = [&](std::size_t i) {
    const BenchRow& r = table.rows[i];
    const double keys[] = {0, static_cast<double>(r.n), r.median_ms, r.items_per_s, r.bytes_per_s, r.percent_of_copy, r.vs_cub};
    return keys[column];
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (column == 0) return descending ? table.rows[b].algorithm < table.rows[a].algorithm : table.rows[a].algorithm < table.rows[b].algorithm;
    return descending ? key(b) < key(a) : key(a) < key(b);
  });
  return order;
}

// Merges new measurements into the shown table, replacing rows of the same algorithm and n.
void merge_rows(BenchResult& into, const BenchResult& from) {
  if (!from.device.empty()) into.device = from.device;
  into.runs = from.runs;
  into.rounds = from.rounds;
  for (const BenchRow& row : from.rows) {
    auto it = std::find_if(into.rows.begin(), into.rows.end(),
                           [&](const BenchRow& r) { return r.algorithm == row.algorithm && r.n == row.n; });
    if (it != into.rows.end()) *it = row;
    else into.rows.push_back(row);
  }
}

void timing_panel(TimingPanel& t, const GpuStatus& gpu) {
  if (gpu.usable) {
    ImGui::Text("GPU: %s (sm_%d%d, %d SMs)", gpu.name.c_str(), gpu.cc_major, gpu.cc_minor, gpu.sm_count);
    if (!find_device_algorithm(t.algorithm)) t.algorithm = std::string(device_algorithms().front().name);
    const std::string name = t.algorithm;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    if (ImGui::BeginCombo("algorithm", name.c_str())) {
      for (const DeviceAlgorithmInfo& a : device_algorithms())
        if (ImGui::Selectable(std::string(a.name).c_str(), a.name == name)) t.algorithm = std::string(a.name);
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    ImGui::SliderInt("n", &t.log2_n, 10, 28, "2^%d", ImGuiSliderFlags_AlwaysClamp);
    const bool busy = t.pending.valid();
    // The measurement runs on its own thread (untraced kernels, CUDA events, the median of 20 runs,
    // every output verified); the frame loop only asks whether it is done.
    bool start = !busy && ImGui::Button(("Measure " + name + ", CUB and the copy").c_str());
    if (!busy && !start && !t.queued_log2_n.empty()) {  // the next queued size, as if its button were pressed
      t.log2_n = t.queued_log2_n.front();
      t.queued_log2_n.erase(t.queued_log2_n.begin());
      start = true;
    }
    if (start) {
      BenchOptions options;
      options.sizes = {std::int64_t{1} << t.log2_n};
      options.algorithms = {name};
      options.rounds = 1;  // the panel shows medians, not the spread over rounds: a third of the wait
      t.started = std::chrono::steady_clock::now();
      t.pending = std::async(std::launch::async, [options] { return run_bench(options, [](const std::string&) {}); });
    }
    if (busy) {
      ImGui::TextDisabled("measuring on the GPU... %.1f s",
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - t.started).count());
      if (t.pending.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        try {
          merge_rows(t.table, t.pending.get());
          t.last_refresh_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t.started).count();
          t.status = "the last point took " + std::to_string(t.last_refresh_s).substr(0, 5) + " s to measure";
        } catch (const std::exception& e) {
          t.status = e.what();
          t.pending = {};
        }
      }
    }
  } else {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(bad_text(), "No usable CUDA device (%s).", gpu.error.c_str());
    ImGui::TextWrapped("Load a table made on a GPU machine with scanviz bench --json FILE instead, or drop it on the window.");
    ImGui::PopTextWrapPos();
  }
  ImGui::InputText("bench JSON", t.path, sizeof t.path);
  ImGui::SameLine();
  if (ImGui::Button("Load")) {
    try {
      const std::string text = read_whole_file(t.path, kMaxBenchFileBytes, "a bench table");
      t.table = {};
      merge_rows(t.table, bench_from_json(text));
      t.status = std::string("loaded ") + t.path;
    } catch (const std::exception& e) {
      t.status = std::string(t.path) + ": " + e.what();
    }
  }
  if (!t.status.empty()) ImGui::TextDisabled("%s", t.status.c_str());
  if (t.table.rows.empty()) return;
  // The chart takes what the table leaves, down to kMinChartEm: the whole table shows under it (the
  // rows of three or four measured sizes at the default window size); a longer one scrolls.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float em = ImGui::GetFontSize();
  const float row_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y + 1;  // + the border under it
  const float table_h = static_cast<float>(t.table.rows.size() + 1) * row_h + 2;
  // Block-level kernels (each block scanning its own tile) are charted apart from the device-wide
  // scans: together they are too many series to tell apart.
  const bool has_block_rows = std::any_of(t.table.rows.begin(), t.table.rows.end(),
                                          [](const BenchRow& r) { return r.algorithm.rfind("block ", 0) == 0; });
  if (has_block_rows) ImGui::Checkbox("chart the block-level kernels instead of the device-wide scans", &t.chart_block_level);
  const chart::Chart chart = chart::throughput_chart(t.table, has_block_rows && t.chart_block_level);
  // Never shorter than its legend, so the legend does not run over the table.
  const float legend_em = svplot::LegendHeightEm(chart), avail_now = ImGui::GetContentRegionAvail().y;
  const float chart_h = std::clamp(avail_now - table_h - style.ItemSpacing.y, std::max(kMinChartEm, legend_em) * em,
                                   std::max(kMaxChartEm, legend_em) * em);
  const float table_room = avail_now - chart_h - style.ItemSpacing.y;
  svplot::Chart("throughput", chart, ImVec2(ImGui::GetContentRegionAvail().x, chart_h));
  const bool scroll = table_h > table_room;
  t.last_row_bottom = t.shown_bottom = 0;
  if (ImGui::BeginTable("rows", 7,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_Sortable |
                            (scroll ? ImGuiTableFlags_ScrollY : 0),
                        ImVec2(0, scroll ? table_room : 0))) {
    if (scroll) ImGui::TableSetupScrollFreeze(0, 1);
    // The algorithm's name whole (the other columns share what is left).
    float name_w = ImGui::CalcTextSize("algorithm").x;
    for (const BenchRow& r : t.table.rows) name_w = std::max(name_w, ImGui::CalcTextSize(r.algorithm.c_str()).x);
    ImGui::TableSetupColumn("algorithm", ImGuiTableColumnFlags_WidthFixed, name_w);
    // Largest n first: the sizes where the scans reach the copy. A click on a header sorts by it.
    ImGui::TableSetupColumn("n", ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_DefaultSort |
                                     ImGuiTableColumnFlags_PreferSortDescending);
    for (const char* h : {"ms", "G items/s", "GB/s", "% of copy", "vs CUB"})
      ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_PreferSortDescending);
    ImGui::TableHeadersRow();
    int sort_column = -1;
    bool descending = false;
    if (const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
      sort_column = specs->Specs[0].ColumnIndex;
      descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    }
    for (const std::size_t i : sorted_rows(t.table, sort_column, descending)) {
      const BenchRow& r = t.table.rows[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.algorithm.c_str());
      ImGui::TableNextColumn();
      if (std::has_single_bit(static_cast<std::uint64_t>(r.n))) ImGui::Text("2^%d", std::countr_zero(static_cast<std::uint64_t>(r.n)));
      else ImGui::Text("%lld", static_cast<long long>(r.n));
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", r.median_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", r.items_per_s / 1e9);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", r.bytes_per_s / 1e9);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", r.percent_of_copy);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", r.vs_cub);
    }
    t.last_row_bottom = ImGui::GetItemRectMax().y + style.CellPadding.y;
    ImGui::EndTable();
  }
  t.shown_bottom = ImGui::GetWindowDrawList()->GetClipRectMax().y;
}

void timing_window(bool* open, TimingPanel& t, const GpuStatus& gpu, ImVec2 display) {
  const float W = display.x, H = display.y;
  ImGui::SetNextWindowSize(ImVec2(W * 0.7f, H * 0.7f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(W * 0.15f, H * 0.12f), ImGuiCond_FirstUseEver);
  const bool shown = ImGui::Begin("GPU timing", open);
  keep_in_display();
  if (shown) timing_panel(t, gpu);
  ImGui::End();
}

}  // namespace sv::gui
