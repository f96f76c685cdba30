// TOML rubrics (rubric_toml.hpp), through toml++ (Debian's libtomlplusplus-dev, header-only here so
// that the page and a program carried to another machine need no library of it).
#include "grade/rubric_toml.hpp"

#include <toml++/toml.h>

#include <cctype>
#include <filesystem>
#include <stdexcept>

namespace sv::grade {

namespace {

using nlohmann::json;

struct Converter {
  const std::string& name;
  RubricLines& lines;

  [[noreturn]] void fail(std::uint32_t line, const std::string& what) const {
    throw std::invalid_argument("rubric " + name + ":" + std::to_string(line) + ": " + what);
  }

  // `at`: the node's place as the rubric's messages name it ("items[2]", "items[2].check").
  json convert(const toml::node& n, const std::string& at) const {
    const std::uint32_t line = n.source().begin.line;
    if (!at.empty()) lines.emplace(at, line);  // the top has no line of its own
    if (const toml::table* t = n.as_table()) {
      json o = json::object();
      for (const auto& [key, value] : *t) {
        const std::string k(key.str());
        o[k] = convert(value, at.empty() ? k : at + "." + k);
        lines[at.empty() ? k : at + "." + k] = key.source().begin.line ? key.source().begin.line : value.source().begin.line;
      }
      return o;
    }
    if (const toml::array* a = n.as_array()) {
      // An array's elements are named as the rubric names them: launches[0], items[2].
      const std::string base = at.substr(at.rfind('.') == std::string::npos ? 0 : at.rfind('.') + 1);
      json arr = json::array();
      for (std::size_t i = 0; i < a->size(); ++i) arr.push_back(convert((*a)[i], base + "[" + std::to_string(i) + "]"));
      return arr;
    }
    if (const auto s = n.value_exact<std::string>()) return *s;
    if (const auto b = n.value_exact<bool>()) return *b;
    if (const auto i = n.value_exact<std::int64_t>()) return *i;
    if (const auto d = n.value_exact<double>()) return *d;
    fail(line, "'" + at + "' is a date or time, which no key of a rubric takes");
  }
};

}  // namespace

json rubric_toml_to_json(const std::string& text, const std::string& name, RubricLines& lines) {
  toml::table table;
  try {
    table = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    std::string what(e.description());
    for (char& c : what)
      if (c == '\n' || c == '\r') c = ' ';
    throw std::invalid_argument("rubric " + name + ":" + std::to_string(at.line) + ": not TOML: " + what + " (column " + std::to_string(at.column) + ")");
  }
  return Converter{name, lines}.convert(table, "");
}

bool rubric_is_toml(const std::string& text, const std::string& name) {
  const std::string ext = std::filesystem::path(name).extension().string();
  if (ext == ".toml") return true;
  if (ext == ".json") return false;
  for (const char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) return c != '{';
  return false;
}

}  // namespace sv::grade
