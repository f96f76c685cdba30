// The test executables' run of doctest, reporting test cases skipped by skip_unless (skips.hpp).
#include "skips.hpp"

#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace

REGISTER_LISTENER("skips", 1, SkipListener);

int run_tests(int argc, char** argv) {
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
