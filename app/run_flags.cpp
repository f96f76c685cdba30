// The run request's flags (run_flags.hpp).
#include "run_flags.hpp"

#include <cstdio>
#include <sstream>
#include <string_view>
#include <vector>
#include <stdexcept>

#include "core/files.hpp"
#include "core/limits.hpp"

namespace sv::cli {

namespace {

// "@FILE": its values separated by commas or newlines; lines starting with # are comments.
std::string input_file_values(const std::string& path) {
  std::istringstream file;
  try {
    file.str(read_whole_file(path, kMaxInputListBytes, "an --input file"));
  } catch (const std::runtime_error& e) {
    throw RequestError("input", "{input} @" + path + ": " + e.what());
  }
  std::string text;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files
    if (!line.empty() && line.front() != '#') text += (text.empty() ? "" : ",") + line;
  }
  if (text.empty()) throw RequestError("input", "{input}: no values given in " + path);
  return text;
}

}  // namespace

void add_run_flags(CLI::App& command, RunFlags& flags, const std::vector<std::pair<std::string, std::string>>& keys) {
  for (const auto& [key, help] : keys) {
    if (key == "exclusive") command.add_flag("--exclusive", flags.exclusive, help);
    else if (key == "option") command.add_option("--option", flags.options, help);
    else command.add_option("--" + key, flags.text[key], help);
  }
}

RunRequest request_of(const CLI::App& command, const RunFlags& flags, RunRequest r) {
  std::vector<std::string_view> keys(kRequestKeys.begin(), kRequestKeys.end());
  keys.push_back("scan");  // the window's form of flags and app, set after them
  for (const std::string_view key : keys) {
    const std::string name(key);
    if (command.get_option_no_throw("--" + name) == nullptr || command.count("--" + name) == 0) continue;
    if (key == "exclusive") {
      r.exclusive = flags.exclusive;
    } else if (key == "option") {
      for (const std::string& kv : flags.options) set_field(r, key, kv);
    } else {
      const std::string& text = flags.text.at(name);
      set_field(r, key, key == "input" && !text.empty() && text.front() == '@' ? input_file_values(text.substr(1)) : text);
    }
  }
  return r;
}

std::string flag_text(const RequestError& e) {
  std::string text = request_error_text(e, "--");
  if (e.field == "algo" && text.find("unknown algorithm") != std::string::npos) text += " (scanviz algos lists them)";
  return text;
}

std::vector<std::int64_t> parse_sizes(const std::string& text, int max_log2) {
  std::vector<std::int64_t> sizes;
  std::istringstream in(text);
  for (std::string tok; std::getline(in, tok, ',');) {
    std::int64_t v = 0;
    int k = 0;
    char extra = 0;
    if (std::sscanf(tok.c_str(), "2^%d%c", &k, &extra) == 1 && k >= 0 && k <= max_log2) v = std::int64_t{1} << k;
    else if (std::sscanf(tok.c_str(), "%ld%c", &v, &extra) != 1) v = 0;
    if (v < 1 || v > (std::int64_t{1} << max_log2))
      throw std::invalid_argument("--sizes: '" + tok.substr(0, 40) + "' is not a size from 1 to 2^" + std::to_string(max_log2));
    sizes.push_back(v);
  }
  if (sizes.empty()) throw std::invalid_argument("--sizes: no sizes given");
  return sizes;
}

}  // namespace sv::cli
