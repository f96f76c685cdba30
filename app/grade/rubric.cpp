// Rubrics (rubric.hpp): read, checked key by key, so a typo in a lecturer's file is one line naming it.
#include "grade/rubric.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "algorithms.hpp"
#include "core/files.hpp"
#include "embedded.hpp"
#include "grade/rubric_toml.hpp"
#include "run/launch.hpp"

namespace sv::grade {

namespace {

using nlohmann::json;

struct Reader {
  std::string name;
  bool toml = false;
  RubricLines lines;  // a TOML file's: where each part and key is, for the message's FILE:LINE
  // `key`: the key the problem is in, whose line is named before its table's where the file says it.
  [[noreturn]] void fail(const std::string& where, const std::string& what, const std::string& key = "") const {
    const std::string part = where.substr(0, where.find(" ("));  // "items[2] (race-free)": items[2]
    auto at = lines.find(key.empty() ? part : part.empty() ? key : part + "." + key);
    if (at == lines.end()) at = lines.find(part);
    const std::string line = at != lines.end() && at->second > 0 ? ":" + std::to_string(at->second) : "";
    throw std::invalid_argument("rubric " + name + line + ": " + (where.empty() ? "" : where + ": ") + what);
  }
  void only_keys(const json& j, const std::string& where, const std::set<std::string>& keys) const {
    if (!j.is_object()) fail(where, toml ? "not a table" : "not a JSON object");
    for (const auto& [key, value] : j.items())
      if (!keys.count(key)) {
        std::string known;
        for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
        fail(where, "unknown key '" + key + "' (" + known + ")", key);
      }
  }
  std::string text(const json& j, const std::string& key, const std::string& where, const std::string& fallback) const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_string()) fail(where, "'" + key + "' is not a string", key);
    return j[key].get<std::string>();
  }
  double number(const json& j, const std::string& key, const std::string& where, double fallback, double least) const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_number()) fail(where, "'" + key + "' is not a number", key);
    const double v = j[key].get<double>();
    if (!(v >= least) || v > 1e9) fail(where, "'" + key + "' is " + j[key].dump() + ", outside " + json(least).dump() + " to 1e9", key);
    return v;
  }
  bool flag(const json& j, const std::string& key, const std::string& where) const {
    if (!j.contains(key)) return false;
    if (!j[key].is_boolean()) fail(where, "'" + key + "' is not true or false", key);
    return j[key].get<bool>();
  }
  std::string scan(const json& j, const std::string& where, const std::string& fallback) const {
    const std::string s = text(j, "scan", where, fallback);
    if (s != "inclusive" && s != "exclusive" && s != "either") fail(where, "scan '" + s + "' is not inclusive, exclusive or either", "scan");
    return s;
  }
  RubricLaunch launch(const json& j, const std::string& where, const std::string& scan_fallback) const {
    RubricLaunch l;
    if (j.is_string()) {
      l.launch = j.get<std::string>();
      l.scan = scan_fallback;
    } else {
      only_keys(j, where, {"launch", "scan"});
      l.launch = text(j, "launch", where, "");
      l.scan = scan(j, where, scan_fallback);
    }
    try {
      (void)parse_launch(l.launch);
    } catch (const std::exception& e) {
      fail(where, "launch '" + l.launch + "': " + e.what(), j.is_string() ? "" : "launch");
    }
    return l;
  }
};

RubricItem read_item(const Reader& in, const json& j, const std::string& where, const std::string& scan) {
  in.only_keys(j, where, {"id", "name", "check", "points", "hidden", "partial", "algorithm", "factor", "against"});
  RubricItem it;
  it.id = in.text(j, "id", where, "");
  if (it.id.empty() || !std::all_of(it.id.begin(), it.id.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }))
    in.fail(where, "'id' must be lowercase letters, digits and '-' (what --only names), not '" + it.id + "'", "id");
  const std::string at = where + " (" + it.id + ")";
  it.name = in.text(j, "name", at, it.id);
  it.check = in.text(j, "check", at, "");
  const std::vector<std::string>& checks = rubric_checks();
  if (std::find(checks.begin(), checks.end(), it.check) == checks.end()) {
    std::string known;
    for (const std::string& c : checks) known += (known.empty() ? "" : ", ") + c;
    in.fail(at, "unknown check '" + it.check + "' (" + known + ")", "check");
  }
  if (!j.contains("points")) in.fail(at, "no 'points'");
  it.points = in.number(j, "points", at, 0, 0);
  it.hidden = in.flag(j, "hidden", at);
  it.partial = in.flag(j, "partial", at);
  if (it.partial && it.check != "outputs") in.fail(at, "'partial' is for the outputs check", "partial");
  it.factor = in.number(j, "factor", at, 1, 1e-9);
  it.algorithm = in.text(j, "algorithm", at, "");
  const bool needs_algorithm = it.check == "matches" || it.check == "work";
  if (needs_algorithm != !it.algorithm.empty())
    in.fail(at, needs_algorithm ? "the " + it.check + " check names an 'algorithm'" : "'algorithm' is for the matches and work checks", "algorithm");
  if (needs_algorithm) {
    const AlgorithmInfo* a = find_algorithm(it.algorithm);
    if (!a || a->racy) in.fail(at, "'" + it.algorithm + "' is not a race-free block algorithm (scanviz algos lists them)", "algorithm");
  }
  it.against = in.text(j, "against", at, it.check == "gpu-time" ? "cub" : "");
  if (it.check == "gpu-time" && it.against != "cub" && it.against != "copy") in.fail(at, "'against' is cub or copy, not '" + it.against + "'", "against");
  if (it.check != "gpu-time" && !it.against.empty()) in.fail(at, "'against' is for the gpu-time check", "against");
  if (it.check == "scan" && scan == "either") in.fail(at, "the scan check needs the rubric's 'scan' to be inclusive or exclusive", "check");
  return it;
}

}  // namespace

double Rubric::max_score() const {
  double s = 0;
  for (const RubricItem& i : items) s += i.points;
  return s;
}

const RubricItem* Rubric::find(const std::string& id) const {
  for (const RubricItem& i : items)
    if (i.id == id) return &i;
  return nullptr;
}

const std::vector<std::string>& rubric_checks() {
  static const std::vector<std::string> checks = {"outputs", "no-races", "no-faults", "scan", "matches", "work", "gpu-time"};
  return checks;
}

Rubric parse_rubric(const std::string& text, const std::string& name) {
  Reader in{name, rubric_is_toml(text, name), {}};
  json j;
  if (in.toml) j = rubric_toml_to_json(text, name, in.lines);
  else try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (const auto at = what.find("parse error"); at != std::string::npos) what = what.substr(at);
    in.fail("", "not JSON: " + what);
  }
  in.only_keys(j, "", {"format", "title", "scan", "launch", "launches", "float_tolerance", "items"});
  if (in.text(j, "format", "", "scanviz-rubric") != "scanviz-rubric") in.fail("", "'format' is not scanviz-rubric", "format");
  Rubric r;
  r.source = name;
  r.title = in.text(j, "title", "", "");
  r.scan = in.scan(j, "", "either");
  r.float_tolerance = in.number(j, "float_tolerance", "", 1, 1e-6);
  if (j.contains("launch") && j.contains("launches")) in.fail("", "'launch' and 'launches': give one", "launches");
  if (j.contains("launch")) {
    if (!j["launch"].is_string()) in.fail("", "'launch' is not a string", "launch");
    r.launches.push_back(in.launch(j["launch"], "launch", r.scan));
  }
  if (j.contains("launches")) {
    if (!j["launches"].is_array() || j["launches"].empty()) in.fail("", "'launches' is not a list of launches", "launches");
    for (std::size_t i = 0; i < j["launches"].size(); ++i) r.launches.push_back(in.launch(j["launches"][i], "launches[" + std::to_string(i) + "]", r.scan));
  }
  if (!j.contains("items") || !j["items"].is_array() || j["items"].empty()) in.fail("", "'items' is not a list of items", "items");
  const bool asks_scan = r.scan != "either" || std::any_of(r.launches.begin(), r.launches.end(), [](const RubricLaunch& l) { return l.scan != "either"; });
  for (std::size_t i = 0; i < j["items"].size(); ++i) {
    RubricItem it = read_item(in, j["items"][i], "items[" + std::to_string(i) + "]", asks_scan ? "asked" : "either");
    if (r.find(it.id)) in.fail("items[" + std::to_string(i) + "]", "a second item '" + it.id + "'", "id");
    r.items.push_back(std::move(it));
  }
  return r;
}

Rubric load_rubric(const std::string& path) {
  if (path.empty()) return parse_rubric(std::string(embedded_file("grading/default_rubric.json")), "default rubric");
  std::string text;
  try {
    text = read_regular_file(path, 1 << 20, "a rubric");
  } catch (const std::exception& e) {
    throw std::invalid_argument("rubric " + path + ": " + e.what());
  }
  return parse_rubric(text, path);
}

}  // namespace sv::grade
