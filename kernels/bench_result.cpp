// The benchmark table's JSON form.
#include "bench_result.hpp"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/limits.hpp"
#include "core/values.hpp"
#include "trace/strict_json.hpp"

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
  for (const BenchRow& row : r.rows)
    j["rows"].push_back({{"algorithm", row.algorithm}, {"n", row.n}, {"median_ms", row.median_ms},
                         {"items_per_s", row.items_per_s}, {"bytes_per_s", row.bytes_per_s},
                         {"percent_of_copy", row.percent_of_copy}, {"vs_cub", row.vs_cub}, {"verified", row.verified}});
  return j.dump(2) + "\n";
}

bool is_bench_json(const std::string& text) {
  // A trace (megabytes, parsed again by its reader) has no such string: it is not parsed here.
  if (text.find("\"scanviz-bench\"") == std::string::npos) return false;
  if (text.size() > kMaxBenchFileBytes) return true;  // bench_from_json says it is too large, unparsed
  try {
    const auto j = parse_strict_json(text, kMaxJsonDepth);
    return j.is_object() && j.value("format", "") == "scanviz-bench";
  } catch (const std::exception&) {
    return false;
  }
}

BenchResult bench_from_json(const std::string& text) {
  auto fail = [](const std::string& what) -> void { throw std::runtime_error(what); };
  if (text.size() > kMaxBenchFileBytes) fail("larger than " + size_text(kMaxBenchFileBytes) + ", the limit for a bench table");
  nlohmann::json j;
  try {
    j = parse_strict_json(text, kMaxJsonDepth);
  } catch (const StrictJsonError& e) {
    fail(e.what());
  } catch (const nlohmann::json::exception&) {
    fail("not JSON");
  }
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
                              std::pair{"vs_cub", &row.vs_cub}}) {
      if (!o.contains(key) || !o[key].is_number() || !std::isfinite(o[key].get<double>()) || o[key].get<double>() < 0)
        fail(at + "." + key + ": expected a non-negative number");
      *field = o[key].get<double>();
    }
    if (!o.contains("verified") || !o["verified"].is_boolean()) fail(at + ".verified: expected true or false");
    row.verified = o["verified"].get<bool>();
    r.rows.push_back(row);
  }
  return r;
}

}  // namespace sv
