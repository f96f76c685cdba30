// Predict-the-step questions: before step k is shown, what will a few of the cells it writes hold,
// and, on a step with a race, which value a racing read sees. Pure functions of a Trace, so they
// work for every block algorithm, operator and input; the GUI's predict panel asks them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.hpp"
#include "trace/trace.hpp"

namespace sv {

enum class QuestionKind : std::uint8_t {
  Value,  // what will buffer[index] hold at the end of the step?
  Stale,  // a read inside a race: does it see the value from before the step, or one written in it?
};

struct PredictQuestion {
  QuestionKind kind = QuestionKind::Value;
  int step = 0;
  int buffer = 0;
  std::int64_t index = 0;            // the cell asked about (Value) or read (Stale)
  std::uint32_t thread = 0;          // the thread that writes the cell (Value) or reads it (Stale)
  std::string prompt;                // one line: "buffer1_s[5] after stride = 2"
  std::vector<std::string> choices;  // 2 to 4 answers to pick from, one of them right
  int correct = 0;                   // index into choices
  Payload answer;                    // the value asked for: the cell's value, or the value the read saw
  std::string explanation;           // from the trace: the operands combined, or the hazard's description
};

inline constexpr int kMaxQuestionsPerStep = 3;

// The questions for `step`, about cells of `buffer` (the buffer the step's diagram row shows; -1:
// the buffer of the step's last write). A step with a RAW or WAR hazard asks about one racing read
// of each kind and the cell the RAW's reader writes; any other step asks about two cells that
// operator applications wrote (copies where none did): the last one and one in the middle. Empty
// when the step writes nothing (nothing to predict).
std::vector<PredictQuestion> predict_questions(const Trace& trace, const std::vector<Hazard>& hazards, int step,
                                               int buffer = -1);

// A typed answer, parsed with parse_value_list (one value) or, for a value with commas such as an
// invalid interval, parse_value; compared with values_match. `error` is set when it does not parse.
struct TypedGrade {
  bool right = false;
  std::string error;
};
TypedGrade grade_typed(const Trace& trace, const PredictQuestion& q, std::string_view text);

}  // namespace sv
