// The benchmark table's JSON form.
#include "bench_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/values.hpp"

namespace sv {

double peak_dram_bytes_per_s(const BenchResult& r) {
  return 2.0 * r.memory_clock_khz * 1e3 * (r.memory_bus_bits / 8.0);
}

double percent_of_peak_dram(const BenchResult& r, const BenchRow& row) {
  const double peak = peak_dram_bytes_per_s(r);
  return peak > 0 ? 100.0 * row.bytes_per_s / peak : 0;
}

std::string bench_to_json(const BenchResult& r) {
  nlohmann::json j = {{"format", "scanviz-bench"}, {"version", 1}, {"device", r.device}, {"runs", r.runs},
                      {"type", std::string(type_name(r.type))}, {"op", "sum"}, {"rows", nlohmann::json::array()}};
  if (r.memory_clock_khz > 0 && r.memory_bus_bits > 0) {
    j["memory_clock_khz"] = r.memory_clock_khz;
    j["memory_bus_bits"] = r.memory_bus_bits;
  }
  j["rounds"] = r.rounds;
  const auto spread = [](const BenchSpread& s) { return nlohmann::json{{"min", s.min}, {"median", s.median}, {"max", s.max}}; };
  for (const BenchRow& row : r.rows) {
    nlohmann::json o = {{"algorithm", row.algorithm}, {"n", row.n}, {"median_ms", row.median_ms},
                        {"items_per_s", row.items_per_s}, {"bytes_per_s", row.bytes_per_s},
                        {"percent_of_copy", row.percent_of_copy}, {"vs_cub", row.vs_cub}, {"verified", row.verified}};
    // Optional, so that readers from before the two measures still read the file (version 1).
    if (row.has_latency_spread()) o["latency_ms"] = spread(row.latency_ms);
    if (row.has_graph())
      o["back_to_back"] = {{"launches", row.graph_launches}, {"ms", spread(row.graph_ms)},
                           {"items_per_s", row.graph_items_per_s()}, {"percent_of_copy", row.graph_percent_of_copy},
                           {"vs_cub", row.graph_vs_cub}};
    j["rows"].push_back(o);
  }
  return j.dump(2) + "\n";
}

namespace {

// "min/median/max" in microseconds, or the median alone for a row without a spread.
std::string spread_us(const BenchSpread& s, double median_ms) {
  char text[64];
  if (s.max > 0) std::snprintf(text, sizeof text, "%.2f/%.2f/%.2f", s.min * 1e3, s.median * 1e3, s.max * 1e3);
  else std::snprintf(text, sizeof text, "%.2f", median_ms * 1e3);
  return text;
}

}  // namespace

std::string bench_table_text(const BenchResult& r) {
  std::string out;
  char line[512];
  const auto add = [&](int written) { out.append(line, static_cast<std::size_t>(std::clamp(written, 0, static_cast<int>(sizeof line) - 1))); };
  add(std::snprintf(line, sizeof line,
                    "%s inclusive sum on %s; us = microseconds a scan, min/median/max over %d rounds\n"
                    "latency: one launch between two events on an idle GPU, a round's median of %d\n"
                    "in graph: back to back, many launches in one CUDA graph (inputs rotated past the L2), the graph's "
                    "time over its launches\n",
                    std::string(type_name(r.type)).c_str(), r.device.c_str(), r.rounds, r.runs));
  const double peak = peak_dram_bytes_per_s(r);
  if (peak > 0)
    add(std::snprintf(line, sizeof line, "peak DRAM %.0f GB/s = 2 x %d MHz x %d bits; %% peak: read + write bytes/s in graph over it\n",
                      peak / 1e9, r.memory_clock_khz / 1000, r.memory_bus_bits));
  int width = 10, lat = 10, graph = 8;  // the longest cells, so the columns line up
  for (const BenchRow& row : r.rows) {
    width = std::max(width, static_cast<int>(row.algorithm.size()));
    lat = std::max(lat, static_cast<int>(spread_us(row.latency_ms, row.median_ms).size()));
    if (row.has_graph()) graph = std::max(graph, static_cast<int>(spread_us(row.graph_ms, 0).size()));
  }
  add(std::snprintf(line, sizeof line, "%-*s %10s | %*s %9s %6s %6s | %*s %9s %6s %6s %6s | %s\n", width, "algorithm", "n",
                    lat, "latency us", "G items/s", "% copy", "vs CUB", graph, "graph us", "G items/s", "% copy", "vs CUB",
                    "% peak", "verified"));
  for (const BenchRow& row : r.rows) {
    char back[160] = "-";
    if (row.has_graph()) {
      const double rate = row.graph_items_per_s();
      char pk[16] = "-";
      if (peak > 0 && row.items_per_s > 0)  // bytes an item (read + write) times items/s in graph
        std::snprintf(pk, sizeof pk, "%.1f", 100.0 * (row.bytes_per_s / row.items_per_s) * rate / peak);
      std::snprintf(back, sizeof back, "%*s %9.2f %6.1f %6.2f %6s", graph, spread_us(row.graph_ms, 0).c_str(), rate / 1e9,
                    row.graph_percent_of_copy, row.graph_vs_cub, pk);
    } else {
      std::snprintf(back, sizeof back, "%*s %9s %6s %6s %6s", graph, "-", "-", "-", "-", "-");
    }
    add(std::snprintf(line, sizeof line, "%-*s %10lld | %*s %9.2f %6.1f %6.2f | %s | %s\n", width, row.algorithm.c_str(),
                      static_cast<long long>(row.n), lat, spread_us(row.latency_ms, row.median_ms).c_str(),
                      row.items_per_s / 1e9, row.percent_of_copy, row.vs_cub, back, row.verified ? "yes" : "NO"));
  }
  return out;
}

bool is_bench_json(const std::string& text) {
  // A trace (megabytes, parsed again by its reader) has no such string: it is not parsed here.
  if (text.find("\"scanviz-bench\"") == std::string::npos) return false;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  return j.is_object() && j.value("format", "") == "scanviz-bench";
}

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

// o[key], a finite non-negative number; `at` names o in the error.
double number(const nlohmann::json& o, const char* key, const std::string& at) {
  if (!o.contains(key) || !o[key].is_number() || !std::isfinite(o[key].get<double>()) || o[key].get<double>() < 0)
    fail(at + "." + key + ": expected a non-negative number");
  return o[key].get<double>();
}

// {"min", "median", "max"}, in that order of size.
BenchSpread read_spread(const nlohmann::json& o, const std::string& at) {
  if (!o.is_object()) fail(at + ": expected an object of min, median and max");
  BenchSpread s{number(o, "min", at), number(o, "median", at), number(o, "max", at)};
  if (!(s.min <= s.median && s.median <= s.max)) fail(at + ": expected min <= median <= max");
  return s;
}

}  // namespace

BenchResult bench_from_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) fail("not JSON");
  if (!j.is_object() || j.value("format", "") != "scanviz-bench") fail("format: not a scanviz bench file");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    fail("version: this scanviz reads version 1");
  BenchResult r;
  if (!j.contains("device") || !j["device"].is_string()) fail("device: expected a string");
  r.device = j["device"].get<std::string>();
  if (!j.contains("runs") || !j["runs"].is_number_integer() || j["runs"].get<int>() < 1) fail("runs: expected a count");
  r.runs = j["runs"].get<int>();
  if (j.contains("type")) {  // written since int32 stopped being the only type; absent: int32
    const auto type = j["type"].is_string() ? parse_type_name(j["type"].get<std::string>()) : std::nullopt;
    if (!type || *type == ValueType::Interval) fail("type: expected int32, int64, float or double");
    r.type = *type;
  }
  for (auto [key, field] : {std::pair{"memory_clock_khz", &r.memory_clock_khz}, std::pair{"memory_bus_bits", &r.memory_bus_bits}}) {
    if (!j.contains(key)) continue;  // written since bench reports the DRAM's peak; absent: unknown
    if (!j[key].is_number_integer() || j[key].get<std::int64_t>() < 1 || j[key].get<std::int64_t>() > INT32_MAX)
      fail(std::string(key) + ": expected a positive integer");
    *field = j[key].get<int>();
  }
  if (j.contains("rounds")) {  // written since bench measures in rounds; absent: 1
    if (!j["rounds"].is_number_integer() || j["rounds"].get<std::int64_t>() < 1 || j["rounds"].get<std::int64_t>() > 1000)
      fail("rounds: expected a count from 1 to 1000");
    r.rounds = j["rounds"].get<int>();
  }
  if (!j.contains("rows") || !j["rows"].is_array()) fail("rows: expected an array");
  for (std::size_t i = 0; i < j["rows"].size(); ++i) {
    const auto& o = j["rows"][i];
    const std::string at = "rows[" + std::to_string(i) + "]";
    if (!o.is_object()) fail(at + ": expected an object");
    BenchRow row;
    if (!o.contains("algorithm") || !o["algorithm"].is_string()) fail(at + ".algorithm: expected a string");
    row.algorithm = o["algorithm"].get<std::string>();
    if (!o.contains("n") || !o["n"].is_number_integer() || o["n"].get<std::int64_t>() < 1) fail(at + ".n: expected a size");
    row.n = o["n"].get<std::int64_t>();
    for (auto [key, field] : {std::pair{"median_ms", &row.median_ms}, std::pair{"items_per_s", &row.items_per_s},
                              std::pair{"bytes_per_s", &row.bytes_per_s}, std::pair{"percent_of_copy", &row.percent_of_copy},
                              std::pair{"vs_cub", &row.vs_cub}})
      *field = number(o, key, at);
    if (!o.contains("verified") || !o["verified"].is_boolean()) fail(at + ".verified: expected true or false");
    row.verified = o["verified"].get<bool>();
    if (o.contains("latency_ms")) row.latency_ms = read_spread(o["latency_ms"], at + ".latency_ms");
    if (o.contains("back_to_back")) {
      const auto& b = o["back_to_back"];
      const std::string in = at + ".back_to_back";
      if (!b.is_object()) fail(in + ": expected an object");
      if (!b.contains("launches") || !b["launches"].is_number_integer() || b["launches"].get<std::int64_t>() < 1 ||
          b["launches"].get<std::int64_t>() > 1000000)
        fail(in + ".launches: expected a count");
      row.graph_launches = b["launches"].get<int>();
      if (!b.contains("ms")) fail(in + ".ms: expected min, median and max");
      row.graph_ms = read_spread(b["ms"], in + ".ms");
      if (row.graph_ms.min <= 0) fail(in + ".ms: expected positive times");
      row.graph_percent_of_copy = number(b, "percent_of_copy", in);
      row.graph_vs_cub = number(b, "vs_cub", in);
    }
    r.rows.push_back(row);
  }
  return r;
}

}  // namespace sv
