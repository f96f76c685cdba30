// Work against steps: the chart data equals the metrics of the traces it was made from, the CSV and
// SVG carry exactly those numbers, and Snir's bound holds for every algorithm.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "analysis/analysis.hpp"
#include "work_steps_runs.hpp"
#include "bench_result.hpp"
#include "chart.hpp"
#include "helpers.hpp"

using namespace sv;

TEST_CASE("work-steps: every point equals the metrics of a trace recorded under another schedule") {
  const auto points = measure_work_steps();
  std::set<std::string> algorithms;
  for (const WorkStepsPoint& p : points) {
    CAPTURE(p.algorithm);
    CAPTURE(p.n);
    algorithms.insert(p.algorithm);
    // The metrics do not depend on the schedule or the operator for race-free kernels.
    const Metrics m = compute_metrics(sv_test::record(p.algorithm, p.n, OpKind::Interval, ValueType::Interval, "random:11"));
    CHECK(p.steps == m.steps);
    CHECK(p.operations == m.operations);
    REQUIRE(p.closed);  // every default size is a power of two
    CHECK(p.steps == p.closed->steps);
    CHECK(p.operations == p.closed->operations);
    // Snir: depth + size >= 2n - 2 for every prefix network.
    CHECK(p.steps + p.operations >= 2 * p.n - 2);
  }
  // Every race-free row of the algorithm table at 2..1024 for one element per thread, 2..2048 for two.
  std::size_t race_free = 0, expected_points = 0;
  for (const AlgorithmInfo& a : block_algorithms())
    if (!a.racy) ++race_free, expected_points += a.items_per_thread == 1 ? 10 : 11;
  CHECK(algorithms.size() == race_free);
  CHECK(points.size() == expected_points);
}

TEST_CASE("work-steps: the CSV holds exactly the measured points") {
  const auto points = measure_work_steps({4, 64, 100});
  const std::string csv = work_steps_csv(points);
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "algorithm,n,steps,operations,closed_steps,closed_operations");
  std::size_t rows = 0;
  for (; std::getline(in, line); ++rows) {
    const WorkStepsPoint& p = points[rows];
    std::string expected = p.algorithm + "," + std::to_string(p.n) + "," + std::to_string(p.steps) + "," +
                           std::to_string(p.operations) + ",";
    expected += p.closed ? std::to_string(p.closed->steps) + "," + std::to_string(p.closed->operations) : ",";
    CHECK(line == expected);
  }
  CHECK(rows == points.size());
  // n = 100 is no power of two: no closed form.
  CHECK(csv.find("kogge-stone,100,7,") != std::string::npos);
}

TEST_CASE("axis labels: thinned so that none runs into the one before") {
  // Eleven "2^k" labels 40 px wide, 30 px apart: every other one fits with a 4 px gap.
  std::vector<float> at, w(11, 40.0f);
  for (int k = 0; k < 11; ++k) at.push_back(100.0f + 30.0f * static_cast<float>(k));
  const std::vector<bool> keep = chart::thin_labels(at, w, 4);
  for (int k = 0; k < 11; ++k) CHECK(keep[static_cast<std::size_t>(k)] == (k % 2 == 0));
  // Room for all: all kept; none given: none.
  CHECK(chart::thin_labels({0, 100, 200}, {40, 40, 40}, 4) == std::vector<bool>{true, true, true});
  CHECK(chart::thin_labels({}, {}, 4).empty());
}

TEST_CASE("work-steps: the lecturer picks the series, and the steps axis can be log2") {
  const auto points = measure_work_steps({8, 64, 1024});
  const std::vector<std::string> only = {"kogge-stone", "brent-kung"};
  const auto charts = chart::work_steps_charts(points, 1024, only, true);
  REQUIRE(charts.size() == 3);
  CHECK(charts[0].log2_y);  // steps
  CHECK(!chart::work_steps_charts(points, 1024)[0].log2_y);
  for (const chart::Chart& c : charts)
    for (const chart::Series& s : c.series) {
      CAPTURE(s.name);
      const bool picked = s.name.rfind("kogge-stone", 0) == 0 && s.name.rfind("kogge-stone-double", 0) != 0;
      CHECK((picked || s.name.rfind("brent-kung", 0) == 0 || s.name.rfind("Snir", 0) == 0));
    }
  // Both picked algorithms are there, as measured points and closed forms.
  CHECK(charts[0].series.size() == 4);
  CHECK(charts[2].series.size() == 3);  // Snir's bound and one point each
}

TEST_CASE("work-steps: the SVG draws one point per measurement with its values, and Snir's bound") {
  const auto points = measure_work_steps({8, 1024});
  const auto charts = chart::work_steps_charts(points, 1024);
  REQUIRE(charts.size() == 3);
  const std::string svg = chart::charts_svg(charts, 1000, 380);
  for (const WorkStepsPoint& p : points) {
    const std::string steps_point = "data-series=\"" + p.algorithm + "\" data-x=\"" + std::to_string(p.n) +
                                    "\" data-y=\"" + std::to_string(p.steps) + "\"";
    const std::string work_point = "data-series=\"" + p.algorithm + "\" data-x=\"" + std::to_string(p.n) +
                                   "\" data-y=\"" + std::to_string(p.operations) + "\"";
    CHECK(svg.find(steps_point) != std::string::npos);
    CHECK(svg.find(work_point) != std::string::npos);
  }
  // Brent-Kung at n = 1024 sits just above Snir's bound: 19 + 2036 >= 2046.
  const chart::Chart& depth = charts[2];
  REQUIRE(depth.series.front().line);
  CHECK(depth.series.front().x.front() == 10);
  CHECK(depth.series.front().y.front() == 2 * 1024 - 2 - 10);
  CHECK(svg.find("data-series=\"brent-kung\" data-x=\"19\" data-y=\"2036\"") != std::string::npos);
}

TEST_CASE("bench tables: JSON round trip, and the loader names the bad field") {
  BenchResult r;
  r.device = "NVIDIA H200";
  r.runs = 20;
  r.rows = {{"copy", 1 << 28, 0.5093, 527.02e9, 4216.2e9, 100.0, 1.38, true},
            {"cub", 1 << 28, 0.7054, 380.52e9, 3044.2e9, 72.2, 1.0, true}};
  const std::string text = bench_to_json(r);
  const BenchResult back = bench_from_json(text);
  CHECK(back.device == r.device);
  CHECK(back.runs == 20);
  REQUIRE(back.rows.size() == 2);
  CHECK(back.rows[1].algorithm == "cub");
  CHECK(back.rows[1].n == (1 << 28));
  CHECK(back.rows[1].items_per_s == doctest::Approx(380.52e9));
  CHECK(bench_to_json(back) == text);
  const chart::Chart c = chart::throughput_chart(back);
  REQUIRE(c.series.size() == 2);
  CHECK(c.series[0].y[0] == doctest::Approx(527.02));
  auto rejects = [](const std::string& t, const std::string& field) {
    try {
      bench_from_json(t);
      return false;
    } catch (const std::runtime_error& e) {
      return std::string(e.what()).find(field) == 0;
    }
  };
  CHECK(rejects("{", "not JSON"));
  CHECK(rejects(R"({"format":"scanviz-trace"})", "format"));
  CHECK(rejects(R"({"format":"scanviz-bench","version":2})", "version"));
  std::string bad = text;
  bad.replace(bad.find("\"n\": 268435456"), 14, "\"n\": -4");
  CHECK(rejects(bad, "rows[0].n"));
  bad = text;
  bad.replace(bad.find("\"verified\": true"), 16, "\"verified\": 1");
  CHECK(rejects(bad, "rows[0].verified"));
  // The sum's type: written, read back, absent in files from before it (int32), refused when not a
  // type bench times.
  CHECK(text.find("\"type\": \"int32\"") != std::string::npos);
  r.type = ValueType::F64;
  const std::string doubles = bench_to_json(r);
  CHECK(doubles.find("\"type\": \"double\"") != std::string::npos);
  CHECK(bench_from_json(doubles).type == ValueType::F64);
  bad = doubles;
  bad.replace(bad.find("\"type\": \"double\""), 16, "\"type\": \"float\"");
  CHECK(bench_from_json(bad).type == ValueType::F32);
  bad = doubles;
  bad.replace(bad.find("\"type\": \"double\","), 17, "");
  CHECK(bad.find("\"type\"") == std::string::npos);
  CHECK(bench_from_json(bad).type == ValueType::I32);
  for (const char* t : {"\"interval\"", "\"int8\"", "3"}) {
    bad = doubles;
    bad.replace(bad.find("\"double\""), 8, t);
    CAPTURE(bad);
    CHECK(rejects(bad, "type"));
  }
}

TEST_CASE("bench tables: the DRAM's peak from the memory clock and bus width, kept in the JSON") {
  BenchResult r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.runs = 20;
  r.rows = {{"copy", 1 << 28, 0.6532, 410.95e9, 3287.6e9, 100.0, 1.23, true}};
  // Unknown (a file from before the fields, or a device that does not say): no peak, no share of it.
  CHECK(peak_dram_bytes_per_s(r) == 0);
  CHECK(percent_of_peak_dram(r, r.rows[0]) == 0);
  CHECK(bench_to_json(r).find("memory_clock_khz") == std::string::npos);
  // NVIDIA's H100 SXM figure: 3.35 TB/s from HBM3 at 2619 MHz on a 5120-bit bus.
  r.memory_clock_khz = 2619000;
  r.memory_bus_bits = 5120;
  CHECK(peak_dram_bytes_per_s(r) == doctest::Approx(3.352e12).epsilon(1e-3));
  CHECK(percent_of_peak_dram(r, r.rows[0]) == doctest::Approx(100.0 * 3287.6 / 3352.3).epsilon(1e-3));
  const std::string text = bench_to_json(r);
  const BenchResult back = bench_from_json(text);
  CHECK(back.memory_clock_khz == 2619000);
  CHECK(back.memory_bus_bits == 5120);
  for (const char* bad_value : {"0", "-5", "\"fast\"", "2.5"}) {
    std::string bad = text;
    bad.replace(bad.find("5120"), 4, bad_value);
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(bench_from_json(bad), doctest::Contains("memory_bus_bits"), std::runtime_error);
  }
}

TEST_CASE("bench tables: both measures with their spreads round-trip, and files without them still load") {
  BenchResult r;
  r.device = "NVIDIA H200";
  r.runs = 20;
  r.rounds = 3;
  BenchRow copy{"copy", 1 << 16, 0.0071, 9.23e9, 73.8e9, 100.0, 2.1, true};
  copy.latency_ms = {0.0069, 0.0071, 0.0085};
  copy.graph_launches = 256;
  copy.graph_ms = {0.00138, 0.0014, 0.00145};
  copy.graph_percent_of_copy = 100.0;
  copy.graph_vs_cub = 3.0;
  BenchRow block{"block brent-kung", 1 << 16, 0.009, 7.3e9, 58.3e9, 78.9, 1.7, true};
  block.latency_ms = {0.0088, 0.009, 0.0093};  // latency only: no graph
  r.rows = {copy, block};
  const std::string text = bench_to_json(r);
  const BenchResult back = bench_from_json(text);
  CHECK(back.rounds == 3);
  REQUIRE(back.rows.size() == 2);
  CHECK(back.rows[0].latency_ms == copy.latency_ms);
  CHECK(back.rows[0].graph_launches == 256);
  CHECK(back.rows[0].graph_ms == copy.graph_ms);
  CHECK(back.rows[0].graph_percent_of_copy == doctest::Approx(100.0));
  CHECK(back.rows[0].graph_vs_cub == doctest::Approx(3.0));
  // 2^16 items in 1.4 us: 46.8 G items/s.
  CHECK(back.rows[0].graph_items_per_s() == doctest::Approx(65536 / 1.4e-6));
  CHECK(back.rows[1].has_latency_spread());
  CHECK_FALSE(back.rows[1].has_graph());
  CHECK(text.find("\"back_to_back\"") == text.rfind("\"back_to_back\""));  // the copy's only
  CHECK(bench_to_json(back) == text);
  // The table names both measures and prints each spread in microseconds.
  const std::string table = bench_table_text(back);
  CHECK(table.find("over 3 rounds") != std::string::npos);
  CHECK(table.find("6.90/7.10/8.50") != std::string::npos);
  CHECK(table.find("1.38/1.40/1.45") != std::string::npos);
  CHECK(table.find("8.80/9.00/9.30") != std::string::npos);
  // A file from before the two measures (no rounds, no spreads, no graph) still loads, as one round
  // with latency alone, and its table shows the median where the spread would be.
  nlohmann::json old = nlohmann::json::parse(text);
  old.erase("rounds");
  for (auto& row : old["rows"]) {
    row.erase("latency_ms");
    row.erase("back_to_back");
  }
  const BenchResult before = bench_from_json(old.dump(2));
  CHECK(before.rounds == 1);
  CHECK_FALSE(before.rows[0].has_graph());
  CHECK_FALSE(before.rows[0].has_latency_spread());
  CHECK(before.rows[0].median_ms == doctest::Approx(0.0071));
  CHECK(bench_table_text(before).find(" 7.10 ") != std::string::npos);
  // Bad spreads and graphs are named.
  const auto rejects = [](std::string t, const std::string& from, const std::string& to, const std::string& field) {
    t.replace(t.find(from), from.size(), to);
    try {
      bench_from_json(t);
      return false;
    } catch (const std::runtime_error& e) {
      return std::string(e.what()).find(field) == 0;
    }
  };
  CHECK(rejects(text, "\"launches\": 256", "\"launches\": 0", "rows[0].back_to_back.launches"));
  CHECK(rejects(text, "\"rounds\": 3", "\"rounds\": 0", "rounds"));
  CHECK(rejects(text, "\"min\": 0.0069", "\"min\": 0.0099", "rows[0].latency_ms: expected min <= median"));
  CHECK(rejects(text, "\"max\": 0.00145", "\"max\": \"slow\"", "rows[0].back_to_back.ms.max"));
  CHECK(rejects(text, "\"min\": 0.00138", "\"min\": 0", "rows[0].back_to_back.ms: expected positive"));
}

TEST_CASE("charts: the three fit the window at a lecture's font, side by side when stacked they would not") {
  // The charts window at 1280 x 720 in lecture mode (a 26 px font): 870 x 470 px under its boxes.
  const chart::ChartGrid lecture = chart::chart_grid(870, 470, 3, 26, 8);
  CHECK(lecture.columns == 2);
  CHECK(lecture.rows == 2);
  CHECK(static_cast<float>(lecture.rows) * lecture.h + 8 * static_cast<float>(lecture.rows - 1) <= 470.5f);
  CHECK(static_cast<float>(lecture.columns) * lecture.w + 8 * static_cast<float>(lecture.columns - 1) <= 870.5f);
  // A normal font stacks them, each the full width.
  const chart::ChartGrid normal = chart::chart_grid(1300, 900, 3, 16, 8);
  CHECK(normal.columns == 1);
  CHECK(normal.w == 1300);
  CHECK(3 * normal.h + 16 <= 900.5f);
  // Too small for any: the minimum size, and the window scrolls.
  const chart::ChartGrid tiny = chart::chart_grid(200, 100, 3, 16, 8);
  CHECK(tiny.h == 6 * 16);
  CHECK(tiny.w == 16 * 16);
}

TEST_CASE("throughput chart: the device-wide scans or the block-level kernels, each with the copy and CUB, every series its own look") {
  BenchResult r;
  r.device = "NVIDIA H200";
  r.type = ValueType::I64;
  const std::vector<std::string> device = {"copy", "cub", "hierarchical", "reduce-then-scan", "chained", "decoupled-lookback"};
  std::vector<std::string> block;  // every race-free row of the algorithm table, timed as bench names it
  for (const std::string& a : sv_test::algorithms(sv_test::Rows::RaceFree)) block.push_back("block " + a);
  for (const std::vector<std::string>* names : {&device, &std::as_const(block)})
    for (const std::string& a : *names)
      for (int k : {20, 24}) r.rows.push_back({a, std::int64_t{1} << k, 1.0, 1e9, 8e9, 50, 1.0, true});
  for (const bool block_level : {false, true}) {
    CAPTURE(block_level);
    const chart::Chart c = chart::throughput_chart(r, block_level);
    std::vector<std::string> names;
    std::set<std::uint32_t> colors;
    std::set<chart::Marker> markers;
    for (const chart::Series& s : c.series) {
      names.push_back(s.name);
      colors.insert(s.color);
      markers.insert(s.marker);
      CHECK(s.x.size() == 2);
    }
    std::vector<std::string> expected = block_level ? std::vector<std::string>{"copy", "cub"} : device;
    if (block_level) expected.insert(expected.end(), block.begin(), block.end());
    CHECK(names == expected);
    CHECK(colors.size() == names.size());
    CHECK(c.title.find("int64") != std::string::npos);
    CHECK((c.title.find("block-level") != std::string::npos) == block_level);
    if (!block_level) CHECK(markers.size() == names.size());
  }
  // A block-level kernel looks as its algorithm does in the work-against-steps charts.
  CHECK(chart::algorithm_color("block brent-kung") == chart::algorithm_color("brent-kung"));
  CHECK(chart::algorithm_marker("block warp-raking") == chart::algorithm_marker("warp-raking"));
}

TEST_CASE("charts: every algorithm its own colour and marker, and a series hiding under another says so") {
  std::vector<std::string> algos;  // every row of the algorithm table
  for (const AlgorithmInfo& a : block_algorithms()) algos.emplace_back(a.name);
  REQUIRE(algos.size() >= 9);
  std::set<std::uint32_t> colors;
  std::set<chart::Marker> markers;
  for (const std::string& a : algos) {
    colors.insert(chart::algorithm_color(a));
    markers.insert(chart::algorithm_marker(a));
  }
  CHECK(colors.size() == algos.size());
  CHECK(markers.size() == algos.size());
  // Kogge-Stone and its double-buffered variant take the same steps and do the same work: the second
  // is drawn hollow and larger over the first, and names it.
  const auto charts = chart::work_steps_charts(measure_work_steps({8, 64}), 64, {"kogge-stone", "kogge-stone-double-buffer"});
  bool named = false;
  for (const chart::Series& s : charts[0].series) named |= s.name == "kogge-stone-double-buffer" && s.note == "= kogge-stone";
  CHECK(named);
  CHECK(chart::marker_shape(chart::algorithm_marker("kogge-stone-double-buffer")).hollow);
  CHECK(!chart::marker_shape(chart::algorithm_marker("kogge-stone")).hollow);
  // The SVG draws each point with its marker's polygon.
  const std::string svg = chart::charts_svg(charts, 900, 300);
  CHECK(svg.find("<polygon class=\"point\" data-series=\"kogge-stone\"") != std::string::npos);
  CHECK(svg.find("fill=\"none\" stroke=") != std::string::npos);  // the hollow ring
  // Any series equal to an earlier one is drawn hollow, whatever its marker: a row added to the
  // algorithm table with another's work at every n does not hide that one's points.
  std::vector<WorkStepsPoint> same;
  for (const char* a : {"brent-kung", "sklansky"})
    for (std::int64_t n : {8, 64}) same.push_back({a, n, 2 * n, 3 * n, std::nullopt});
  const auto equal = chart::work_steps_charts(same, 64, {"brent-kung", "sklansky"});
  for (const chart::Series& s : equal[1].series) {
    CAPTURE(s.name);
    CHECK(s.hollow == (s.name == "sklansky"));
    CHECK((s.note == "= brent-kung") == (s.name == "sklansky"));
  }
  const std::string equal_svg = chart::charts_svg(equal, 900, 300);
  const std::size_t sklansky_point = equal_svg.find("<polygon class=\"point\" data-series=\"sklansky\"");
  REQUIRE(sklansky_point != std::string::npos);
  const std::string tag = equal_svg.substr(sklansky_point, equal_svg.find('>', sklansky_point) - sklansky_point);
  CHECK(tag.find("fill=\"none\"") != std::string::npos);
  CHECK(!chart::marker_shape(chart::algorithm_marker("sklansky")).hollow);
}
