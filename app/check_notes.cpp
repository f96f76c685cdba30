// The report card's notes (check_notes.hpp).
#include "check_notes.hpp"

#include <map>
#include <sstream>

#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"

namespace sv {

namespace {

// The body of `#define NAME BODY` on line `line` of `source` ("" where that line is not one).
std::string macro_body(const std::string& source, std::uint32_t line, const std::string& name) {
  std::istringstream in(source);
  std::string text;
  for (std::uint32_t n = 0; n < line && std::getline(in, text);) ++n;
  const std::size_t at = text.find(name);
  if (text.find("#define") == std::string::npos || at == std::string::npos) return {};
  const std::size_t start = text.find_first_not_of(" \t", at + name.size());
  if (start == std::string::npos) return {};
  const std::size_t end = text.find_last_not_of(" \t\r");
  return text.substr(start, end + 1 - start);
}

}  // namespace

std::string block_note(const cuda::CheckReport& r, const std::string& source, bool launch_given) {
  if (launch_given || r.kernel.empty() || r.block <= 0) return {};
  const std::string macro = cuda::block_macro(source, r.file);
  if (macro.empty()) return {};
  const std::map<std::string, cuda::SrcPos> macros = cuda::defined_macros(source, r.file);
  const auto at = macros.find(macro);
  if (at == macros.end() || at->second.file != 0) return {};
  const std::string body = macro_body(source, at->second.line, macro);
  if (body.empty() || body.find_first_not_of("0123456789") != std::string::npos || body == std::to_string(r.block)) return {};
  return "blocks of " + std::to_string(r.block) + " threads where the file says " + macro + " " + body + ": without a launch the check sets " +
         macro + " to " + std::to_string(r.block) + ", small enough to try every schedule and lockstep width; --launch '" + r.kernel +
         "<<<GRID, " + body + ">>>(...)' checks it at " + body;
}

}  // namespace sv
