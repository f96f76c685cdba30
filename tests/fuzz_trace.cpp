// The trace mutator and the in-process loader fuzz: byte-level damage (truncation, flipped and
// replaced bytes, deleted and duplicated spans, numbers replaced) and field-level changes made on the
// parsed document (huge numbers, wrong types, fields removed, duplicated, emptied or swapped).
#include "fuzz_trace.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace_json.hpp"

namespace sv_test {

namespace {

// Start and length of each number token (a run of -+.eE digits that starts with '-' or a digit and
// does not continue a word such as "x3").
std::vector<std::pair<std::size_t, std::size_t>> number_tokens(const std::string& s) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto number_char = [&](char c) { return digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; };
  const auto word_char = [&](char c) {
    return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.';
  };
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < s.size();) {
    const bool starts = (s[i] == '-' || digit(s[i])) && (i == 0 || !word_char(s[i - 1]));
    if (!starts) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < s.size() && number_char(s[j])) ++j;
    out.emplace_back(i, j - i);
    i = j;
  }
  return out;
}

std::string mutate_bytes(const std::string& text, std::mt19937_64& rng, std::string& how) {
  const auto below = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
  std::string s = text;
  if (s.empty()) return s;
  switch (below(8)) {
    case 0: {
      const std::size_t at = below(s.size());
      how = "truncate at " + std::to_string(at);
      s.resize(at);
      break;
    }
    case 1: {
      const std::size_t flips = 1 + below(4);
      how = "flip " + std::to_string(flips) + " bits";
      for (std::size_t k = 0; k < flips; ++k) s[below(s.size())] ^= static_cast<char>(1u << below(8));
      break;
    }
    case 2: {
      static const std::string kBytes = "{}[],:\"\\ 0123456789-.eEnulltruefalsex\x01\xff";
      const std::size_t bytes = 1 + below(4);
      how = "replace " + std::to_string(bytes) + " bytes";
      for (std::size_t k = 0; k < bytes; ++k) s[below(s.size())] = kBytes[below(kBytes.size())];
      break;
    }
    case 3: {
      const std::size_t at = below(s.size());
      const std::size_t len = 1 + below(std::min<std::size_t>(32, s.size() - at));
      how = "delete " + std::to_string(len) + " bytes at " + std::to_string(at);
      s.erase(at, len);
      break;
    }
    case 4: {
      const std::size_t at = below(s.size());
      const std::size_t len = 1 + below(std::min<std::size_t>(64, s.size() - at));
      how = "duplicate " + std::to_string(len) + " bytes at " + std::to_string(at);
      s.insert(at, s.substr(at, len));
      break;
    }
    default: {  // the most telling mutation for the validator, so the most frequent
      static const char* const kReplacements[] = {"-1", "1e30", "\"x\"", "null", "99999999999"};
      const auto tokens = number_tokens(s);
      if (tokens.empty()) break;
      const auto [at, len] = tokens[below(tokens.size())];
      const std::string by = kReplacements[below(5)];
      how = "replace number " + s.substr(at, len) + " at " + std::to_string(at) + " by " + by;
      s.replace(at, len, by);
      break;
    }
  }
  return s;
}


// A node of the document below the top, found by descending from it and stopping at each level
// with probability 1/4; `where` names it (events[12][3]). Null when the top has no children.
struct Picked {
  nlohmann::ordered_json* parent = nullptr;
  std::string key;        // in an object parent
  std::size_t index = 0;  // in an array parent
  std::string where;
};

Picked pick_node(nlohmann::ordered_json& top, std::mt19937_64& rng) {
  Picked p;
  nlohmann::ordered_json* node = &top;
  while ((node->is_object() || node->is_array()) && !node->empty() && (p.parent == nullptr || rng() % 4 != 0)) {
    p.parent = node;
    if (node->is_object()) {
      auto it = node->begin();
      std::advance(it, static_cast<std::ptrdiff_t>(rng() % node->size()));
      p.key = it.key();
      p.where += (p.where.empty() ? "" : ".") + p.key;
      node = &it.value();
    } else {
      p.index = rng() % node->size();
      p.where.append("[").append(std::to_string(p.index)).append("]");
      node = &(*node)[p.index];
    }
  }
  return p;
}

// Parses the trace and changes one field: a huge or edge number, a value of the wrong type, the field
// removed, duplicated, emptied, or swapped with a sibling.
std::string mutate_fields(const std::string& text, std::mt19937_64& rng, std::string& how) {
  using nlohmann::ordered_json;
  ordered_json top = ordered_json::parse(text, nullptr, false);
  Picked p = pick_node(top, rng);
  if (!p.parent) return text;
  ordered_json& node = p.parent->is_object() ? (*p.parent)[p.key] : (*p.parent)[p.index];
  const std::vector<ordered_json> numbers = {1e308, -1e308, std::numeric_limits<std::uint64_t>::max(), 18446744073709551616.0,
                                             std::numeric_limits<std::int64_t>::min(), 9007199254740993LL, 2147483648LL,
                                             4294967296LL, -1, 0, 0.5};
  const std::vector<ordered_json> wrong_types = {"x", "", nullptr, true, ordered_json::object(), ordered_json::array(),
                                                 ordered_json::parse("[[-1]]"), "x0..x3", ordered_json::parse(R"({"a": 1})")};
  switch (rng() % 6) {
    case 0:
      node = numbers[rng() % numbers.size()];
      how = p.where + " set to the number " + node.dump();
      break;
    case 1:
      node = wrong_types[rng() % wrong_types.size()];
      how = p.where + " set to " + node.dump();
      break;
    case 2:
      how = p.where + " removed";
      if (p.parent->is_object()) p.parent->erase(p.key);
      else p.parent->erase(p.index);
      break;
    case 3:
      how = p.where + " duplicated";
      if (p.parent->is_array()) {
        const ordered_json copy = node;  // not a reference into the array that grows
        p.parent->insert(p.parent->begin() + static_cast<std::ptrdiff_t>(p.index), copy);
      } else {
        node = ordered_json::array({node, node});
      }
      break;
    case 4:
      how = p.where + " emptied";
      if (node.is_structured()) node.clear();
      else node = ordered_json::array();
      break;
    default: {
      const std::size_t other = rng() % p.parent->size();
      how = p.where + " swapped with its sibling " + std::to_string(other);
      auto it = p.parent->begin();
      std::advance(it, static_cast<std::ptrdiff_t>(other));
      if (&*it != &node) std::swap(node, *it);
      break;
    }
  }
  return top.dump();
}

}  // namespace

std::string mutate_trace(const std::string& text, std::mt19937_64& rng, std::string& how) {
  return rng() % 3 == 0 ? mutate_fields(text, rng, how) : mutate_bytes(text, rng, how);  // a third by field
}

void fuzz_trace_loader(const std::string& json, int copies, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int rejected = 0;
  for (int copy = 0; copy < copies; ++copy) {
    std::string how = "unchanged";
    const std::string mutant = mutate_trace(json, rng, how);
    INFO("mutant " << copy << " (seed " << seed << "): " << how);
    std::optional<sv::Trace> trace;
    try {
      trace = sv::trace_from_json(mutant);
    } catch (const sv::TraceError& e) {
      ++rejected;
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      continue;
    } catch (const std::exception& e) {
      FAIL_CHECK("threw something other than TraceError: " << e.what());
      continue;
    }
    // Accepted: what the writer makes of it must read back to the same text.
    try {
      const std::string again = sv::trace_to_json(*trace);
      CHECK(sv::trace_to_json(sv::trace_from_json(again)) == again);
    } catch (const std::exception& e) {
      FAIL_CHECK("an accepted mutant does not save and reload: " << e.what());
    }
  }
  INFO("rejected " << rejected << " of " << copies);
  CHECK(rejected * 10 > copies);
}

}  // namespace sv_test
