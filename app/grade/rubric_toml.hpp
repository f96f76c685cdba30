// A rubric written in TOML: read into the same JSON shape the rubric's checks walk (rubric.cpp), with
// the line each table and key is at, so that a mistake is refused at its line of the file.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace sv::grade {

// Where the rubric's parts are in the file: "" (the top), "launch", "launches[1]", "items[2]", and a
// key of one of them as "items[2].check", each to its line (from 1).
using RubricLines = std::map<std::string, std::uint32_t>;

// The TOML text as JSON (tables as objects, arrays as arrays, numbers, strings and booleans as
// themselves), filling `lines`. Throws std::invalid_argument with one line ("rubric NAME:LINE: not
// TOML: ...") for text that is not TOML or holds a date or time, which no key of a rubric takes.
nlohmann::json rubric_toml_to_json(const std::string& text, const std::string& name, RubricLines& lines);

// Whether the rubric in the file `name` is TOML: its extension says (.toml, .json), else its text
// (JSON starts with '{').
bool rubric_is_toml(const std::string& text, const std::string& name);

}  // namespace sv::grade
