// Reading the class CSV back (class_table_read.hpp): RFC 4180 fields, as class_csv quotes them.
#include "grade/class_table_read.hpp"

#include <stdexcept>

namespace sv::grade {

namespace {

// The fields of the line starting at `at` (quoted fields may hold commas, quotes and line ends);
// `at` moves past its line end. False at the end of the text.
bool next_record(const std::string& s, std::size_t& at, std::vector<std::string>& fields) {
  fields.clear();
  if (at >= s.size()) return false;
  std::string field;
  bool quoted = false;
  for (; at < s.size(); ++at) {
    const char c = s[at];
    if (quoted) {
      if (c != '"') field += c;
      else if (at + 1 < s.size() && s[at + 1] == '"') field += s[++at];
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && at + 1 < s.size() && s[at + 1] == '\n') ++at;
      ++at;
      break;
    } else {
      field += c;
    }
  }
  fields.push_back(std::move(field));
  return true;
}

double number(const std::string& s, const std::string& where) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(where + ": '" + s + "' is not a number");
}

}  // namespace

std::vector<ClassRow> read_class_csv(const std::string& text, const std::string& name) {
  std::size_t at = 0;
  std::vector<std::string> f;
  if (!next_record(text, at, f) || f.size() < 7 || f[0] != "file" || f[1] != "verdict" || f[2] != "score" || f[3] != "max_score")
    throw std::invalid_argument(name + ":1: not a class table (scanviz check FOLDER --summary FILE.csv writes one)");
  std::vector<ClassRow> rows;
  for (int line = 2; next_record(text, at, f) && !(f.size() == 1 && f[0].empty()); ++line) {
    const std::string where = name + ":" + std::to_string(line);
    if (f.size() < 7) throw std::invalid_argument(where + ": " + std::to_string(f.size()) + " fields where a submission's row has 7 or 8");
    if (f[1] != "correct" && f[1] != "wrong" && f[1] != "error") throw std::invalid_argument(where + ": verdict '" + f[1] + "' is not correct, wrong or error");
    ClassRow r;
    r.file = f[0];
    r.verdict = f[1];
    r.score = number(f[2], where);
    r.max_score = number(f[3], where);
    r.first = f[4];
    r.matches = f[5];
    r.seconds = number(f[6], where);
    rows.push_back(std::move(r));
  }
  if (rows.empty()) throw std::invalid_argument(name + ": a class table without submissions");
  return rows;
}

}  // namespace sv::grade
