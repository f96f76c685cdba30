// JSON as scanviz's readers take it: nlohmann's document, but a key twice in one object and nesting
// deeper than a limit are refused while parsing (thirty megabytes of '[' would otherwise take
// gigabytes before any field could be checked).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace sv {

struct StrictJsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws StrictJsonError ("meta.n: duplicate key (a key appears once in an object)",
// "events[3][11]: nested deeper than 16 levels") and nlohmann's exceptions for text that is not JSON.
nlohmann::json parse_strict_json(const std::string& text, std::size_t max_depth);

}  // namespace sv
