// Predict-the-step questions: answers are what the trace's snapshots hold, the right choice is among
// the choices, explanations come from the trace (operands, hazards), for every algorithm and operator.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "algorithms.hpp"
#include "analysis/predict.hpp"
#include "core/values.hpp"
#include "helpers.hpp"

using namespace sv;

namespace {
int step_labelled(const Trace& t, const std::string& label) {
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    if (t.steps[k].label() == label) return static_cast<int>(k);
  return -1;
}
}  // namespace

TEST_CASE("predict: kogge-stone-double-buffer n = 8 at stride 2 asks the slides' cells") {
  const Trace t = sv_test::record_interval("kogge-stone-double-buffer", 8);
  const int step = step_labelled(t, "stride = 2");
  REQUIRE(step == 2);
  const auto qs = predict_questions(t, find_hazards(t), step, t.find_buffer("buffer1_s"));
  REQUIRE(qs.size() == 2);
  // The last cell, then the middle one.
  CHECK(qs[0].kind == QuestionKind::Value);
  CHECK(qs[0].index == 7);
  CHECK(qs[1].index == 5);
  CHECK(qs[0].prompt == "buffer1_s[7] after stride = 2");
  CHECK(format_value(t.meta.type, qs[0].answer) == "x4..x7");
  CHECK(qs[0].choices.at(static_cast<std::size_t>(qs[0].correct)) == "x4..x7");
  CHECK(qs[0].explanation == "thread 7: buffer2_s[5] (x4..x5) + buffer2_s[7] (x6..x7) = x4..x7");
  CHECK(format_value(t.meta.type, qs[1].answer) == "x2..x5");
  // Distractors are the operands and the cell before the step: a student who forgets to add sees them.
  const std::set<std::string> choices(qs[0].choices.begin(), qs[0].choices.end());
  CHECK(choices.count("x6..x7") == 1);
  CHECK(choices.count("x4..x5") == 1);
}

TEST_CASE("predict: every block algorithm, operator and step gives answerable questions") {
  for (const AlgorithmInfo& a : block_algorithms()) {
    for (const auto& [op, type] : sv_test::all_ops()) {
      for (std::int64_t n : {17, 32}) {
        const Trace t = sv_test::record(std::string(a.name), n, op, type);
        const auto hazards = find_hazards(t);
        int asked = 0;
        for (int k = 0; k < static_cast<int>(t.steps.size()); ++k) {
          CAPTURE(a.name);
          CAPTURE(op_name(op));
          CAPTURE(type_name(type));
          CAPTURE(k);
          const auto qs = predict_questions(t, hazards, k);
          CHECK(qs.size() <= static_cast<std::size_t>(kMaxQuestionsPerStep));
          for (const PredictQuestion& q : qs) {
            ++asked;
            REQUIRE(q.choices.size() >= 2);
            REQUIRE(q.correct >= 0);
            REQUIRE(q.correct < static_cast<int>(q.choices.size()));
            CHECK(std::set<std::string>(q.choices.begin(), q.choices.end()).size() == q.choices.size());
            CHECK_FALSE(q.explanation.empty());
            if (q.kind != QuestionKind::Value) continue;
            const BufferSnapshot& snap = t.snapshots[static_cast<std::size_t>(k)][static_cast<std::size_t>(q.buffer)];
            CHECK(snap.values.at(static_cast<std::size_t>(q.index)) == q.answer);
            CHECK(q.choices[static_cast<std::size_t>(q.correct)] == format_value(type, q.answer));
            // Typing the right value is right; typing a distractor is wrong.
            CHECK(grade_typed(t, q, q.choices[static_cast<std::size_t>(q.correct)]).right);
            const std::size_t other = (static_cast<std::size_t>(q.correct) + 1) % q.choices.size();
            CHECK_FALSE(grade_typed(t, q, q.choices[other]).right);
          }
        }
        CHECK(asked > 0);
      }
    }
  }
}

TEST_CASE("predict: the racy kernel asks whether a read is stale, and explains with the hazard") {
  const Trace t = sv_test::record("kogge-stone-racy", 64, OpKind::Interval, ValueType::Interval);
  const auto hazards = find_hazards(t);
  int raw_step = -1;
  for (const Hazard& h : hazards)
    if (h.kind == HazardKind::RAW && raw_step < 0) raw_step = h.step;
  REQUIRE(raw_step >= 0);
  const auto qs = predict_questions(t, hazards, raw_step);
  REQUIRE(qs.size() >= 2);
  const PredictQuestion& stale = qs.front();
  CHECK(stale.kind == QuestionKind::Stale);
  CHECK(stale.choices.size() == 2);
  CHECK(stale.correct == 1);  // the read saw the value written within the step
  CHECK(stale.explanation.find("RAW ") == 0);
  CHECK(stale.explanation.find("instead of") != std::string::npos);
  CHECK(stale.prompt.find("which value does the read see") != std::string::npos);
  // Typing the value the read saw is right.
  CHECK(grade_typed(t, stale, format_value(t.meta.type, stale.answer)).right);
  // The stale reader's own cell: at stride 1 thread 32 combines x30..x31 (stale) with x32; the
  // race-free x31..x32 is among the choices, and wrong. The explanation names the race.
  CHECK(raw_step == 1);
  CHECK(stale.thread == 32);
  const PredictQuestion& cell = qs.back();
  CHECK(cell.kind == QuestionKind::Value);
  CHECK(cell.thread == stale.thread);
  CHECK(format_value(t.meta.type, cell.answer) == "x30..x32");
  CHECK(std::find(cell.choices.begin(), cell.choices.end(), "x31..x32") != cell.choices.end());
  CHECK_FALSE(grade_typed(t, cell, "x31..x32").right);
  CHECK(cell.explanation.find("Stale read: RAW buffer_s[31]") != std::string::npos);
  // At stride 2 the race combines ranges that do not meet: an invalid interval, typed with its comma.
  const auto next = predict_questions(t, hazards, 2);
  REQUIRE_FALSE(next.empty());
  CHECK(next.back().answer.as<Interval>().is_invalid());
  CHECK(grade_typed(t, next.back(), format_value(t.meta.type, next.back().answer)).right);
  CHECK_FALSE(grade_typed(t, next.back(), "x30..x32").right);
}

TEST_CASE("predict: typed answers that do not parse say why, and steps that write nothing ask nothing") {
  const Trace t = sv_test::record("kogge-stone", 8, OpKind::Sum, ValueType::I32, "in-order", false, 1,
                                  slides_input(OpKind::Sum, ValueType::I32, 8));
  const auto qs = predict_questions(t, find_hazards(t), static_cast<int>(t.steps.size()) - 1);
  REQUIRE_FALSE(qs.empty());
  const TypedGrade bad = grade_typed(t, qs[0], "x3");
  CHECK_FALSE(bad.right);
  CHECK(bad.error.find("not an int32 value") != std::string::npos);
  const TypedGrade two = grade_typed(t, qs[0], "3, 4");
  CHECK_FALSE(two.right);
  CHECK(two.error.find("one value") != std::string::npos);
  CHECK(grade_typed(t, qs[0], "  " + format_value(t.meta.type, qs[0].answer) + " ").right);
  CHECK(predict_questions(t, {}, -1).empty());
  CHECK(predict_questions(t, {}, static_cast<int>(t.steps.size())).empty());
  Trace empty = t;
  for (Step& s : empty.steps) s.end_event = s.first_event;
  CHECK(predict_questions(empty, {}, 1).empty());
}
