// Reading on past an error, so that a file with several problems gets all of them at once, as a
// compiler lists its errors: a statement that fails is noted and skipped to its end, and so is a
// file-scope item; the parse then throws the first error with the others in its `more`.
#include <algorithm>

#include "cuda_subset/parser_impl.hpp"

namespace sv::cuda::parse {

namespace {
constexpr std::size_t kMaxErrors = 20;  // as many as a student reads before fixing the first
}

bool Parser::recover(const KernelError& e, const Resume& r) {
  if ((e.kind != "syntax" && e.kind != "unsupported") || elsewhere_ != r.elsewhere || errors_.size() >= kMaxErrors) return false;
  note_error(e);
  scopes_.resize(r.scopes);
  loops_ = r.loops;
  switches_ = r.switches;
  launch_config_ = r.launch_config;
  return true;
}

void Parser::note_error(const KernelError& e) {
  // Said once: an error at one place (a template read for each instance), and a name undeclared
  // (its declaration may be the statement that failed).
  const bool undeclared = e.message.rfind("use of undeclared identifier", 0) == 0;
  const bool again = std::any_of(errors_.begin(), errors_.end(), [&](const KernelError& x) {
    return x.message == e.message && (undeclared || (x.pos.line == e.pos.line && x.pos.col == e.pos.col && x.pos.file == e.pos.file));
  });
  if (!again && errors_.size() < kMaxErrors) errors_.push_back(e);
}

void Parser::throw_errors() {
  KernelError first = errors_.front();
  first.more.assign(errors_.begin() + 1, errors_.end());
  throw first;
}

void Parser::skip_statement() {
  int parens = 0;
  while (cur().kind != Tok::End) {
    if (at("(") || at("[")) {
      ++parens;
    } else if (at(")") || at("]")) {
      parens = std::max(parens - 1, 0);
    } else if (at(";") && parens == 0) {
      ++i_;
      return;
    } else if (at("{")) {
      skip_balanced("{", "}");
      if (parens == 0 && !at_ident("else")) return;
      continue;
    } else if (at("}")) {
      return;  // the block around the statement ends here
    }
    ++i_;
  }
}

void Parser::top_level_recovering() {
  const Resume resume = resume_point();
  const std::size_t start = i_;
  try {
    top_level();
  } catch (const KernelError& e) {
    if (!recover(e, resume)) throw;
    if (i_ == start) ++i_;  // always onward
    skip_statement();
    if (at("}") && namespaces_ == 0) ++i_;  // a stray '}' at file scope
  }
}

}  // namespace sv::cuda::parse
