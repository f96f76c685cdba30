// The test executables' run of doctest, reporting test cases skipped by skip_unless (skips.hpp).
#include "skips.hpp"

#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// doctest's registry of test cases (defined with its implementation, declared only there).
namespace doctest::detail {
std::set<TestCase>& getRegisteredTests();
}

namespace sv_test {

namespace {

// What the listener below saw: the skipped test cases a listing matched, and how many ran.
struct Seen {
  bool collect = false;
  std::vector<std::pair<std::string, std::string>> skipped;  // name, reason
  int ran = 0;
};
Seen& seen() {
  static Seen s;
  return s;
}

struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData& q) override {
    if (!seen().collect) return;
    for (unsigned i = 0; i < q.num_data; ++i)
      if (q.data[i]->m_skip) seen().skipped.emplace_back(q.data[i]->m_name, q.data[i]->m_description);
  }
  void test_case_start(const doctest::TestCaseData&) override { ++seen().ran; }
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

// The conditional test cases, by name, as skip_unless noted them.
struct Conditional {
  bool (*can_run)();
  const char* reason;
};
std::map<std::string, Conditional>& conditionals() {
  static std::map<std::string, Conditional> c;
  return c;
}

// Asks each condition once and marks the test cases whose condition fails as skipped. A set's
// elements are reached as const; m_skip and m_description are not part of its order.
void decide_skips() {
  std::map<bool (*)(), bool> answers;
  for (const doctest::detail::TestCase& tc : doctest::detail::getRegisteredTests()) {
    const auto it = conditionals().find(tc.m_name);
    if (it == conditionals().end()) continue;
    const auto [answer, fresh] = answers.try_emplace(it->second.can_run, false);
    if (fresh) answer->second = it->second.can_run();
    if (answer->second) continue;
    auto& state = const_cast<doctest::detail::TestCase&>(tc);
    state.m_skip = true;
    state.m_description = it->second.reason;
  }
}

}  // namespace

void skip_unless::fill(doctest::detail::TestCase& state) const { conditionals()[state.m_name] = {can_run, reason}; }

REGISTER_LISTENER("skips", 1, SkipListener);

int run_tests(int argc, char** argv) {
  decide_skips();
  {  // The skipped test cases these arguments' filters match: a silent listing that keeps them.
    std::vector<const char*> args(argv, argv + argc);
    args.push_back("--dt-list-test-cases");  // a flag: setOption cannot set it
    doctest::Context listing(static_cast<int>(args.size()), args.data());
    listing.setOption("no-skip", true);
    std::ostringstream sink;
    listing.setCout(&sink);
    seen().collect = true;
    listing.run();
    seen().collect = false;
  }
  doctest::Context context(argc, argv);
  if (context.shouldExit()) context.setOption("no-skip", true);  // a listing (CTest's) names them too
  const int code = context.run();
  if (context.shouldExit()) return code;
  for (const auto& [name, reason] : seen().skipped) std::cout << "skipped: " << name << ": " << reason << "\n";
  return code == 0 && seen().ran == 0 && !seen().skipped.empty() ? 77 : code;
}

}  // namespace sv_test
