// Predict-the-step questions from a trace: which cells to ask about, their answers, distractors and
// the explanation of each answer.
#include "analysis/predict.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "core/values.hpp"

namespace sv {

namespace {

std::string cell_name(const Trace& t, int buffer, std::int64_t index) {
  return t.buffers.at(static_cast<std::size_t>(buffer)).name + "[" + std::to_string(index) + "]";
}

// ASCII, so the GUI's font shows it: "a + b", "a * b", "min(a, b)".
std::string op_expression(OpKind op, const std::string& a, const std::string& b) {
  switch (op) {
    case OpKind::Sum:
    case OpKind::Interval: return a + " + " + b;
    case OpKind::Product: return a + " * " + b;
    case OpKind::Min: return "min(" + a + ", " + b + ")";
    case OpKind::Max: return "max(" + a + ", " + b + ")";
    case OpKind::And: return a + " and " + b;
    case OpKind::Or: return a + " or " + b;
    case OpKind::BitAnd: return a + " & " + b;
    case OpKind::BitOr: return a + " | " + b;
    case OpKind::BitXor: return a + " ^ " + b;
  }
  return a + " op " + b;
}

// The thread's last read of the cell before `before` (the value an operand came from), or null. A
// value that reached the thread by a warp shuffle was read by the lane it came from: when the thread
// itself never read the cell, the block's last read of it.
const Event* operand_read(const Trace& t, const Event& writer, const Origin& o, std::uint64_t before) {
  const Event* by_another = nullptr;
  for (std::uint64_t i = std::min<std::uint64_t>(before, t.events.size()); i-- > 0;) {
    const Event& e = t.events[i];
    if (e.kind != EventKind::Read || e.block != writer.block || e.buffer != o.buffer || e.index != o.index) continue;
    if (e.thread == writer.thread) return &e;
    if (!by_another) by_another = &e;
  }
  return by_another;
}

const Hazard* raw_hazard_of_read(const std::vector<Hazard>& hazards, std::uint64_t read_seq) {
  for (const Hazard& h : hazards)
    if (h.kind == HazardKind::RAW && h.second.seq == read_seq) return &h;
  return nullptr;
}

struct Operand {
  std::string text;            // "buffer2_s[3] (x2..x3)"
  std::optional<Payload> value;
  const Hazard* stale = nullptr;  // the RAW hazard this operand's read was part of
};

Operand describe_operand(const Trace& t, const std::vector<Hazard>& hazards, const Event& writer, const Origin& o,
                         std::uint64_t before) {
  const ValueType type = t.meta.type;
  Operand out;
  if (o.kind == Origin::Cell && o.buffer < t.buffers.size()) {
    const Event* read = operand_read(t, writer, o, before);
    out.text = cell_name(t, o.buffer, o.index);
    if (read) {
      out.value = read->value;
      out.text += " (" + format_value(type, read->value) + ")";
      out.stale = raw_hazard_of_read(hazards, read->seq);
    }
  } else if (o.kind == Origin::OpResult && o.index >= 0 && static_cast<std::uint64_t>(o.index) < t.events.size()) {
    out.value = t.events[static_cast<std::size_t>(o.index)].value;
    out.text = format_value(type, *out.value) + " (an earlier result)";
  } else {
    out.value = identity_of(t.meta.op, type);
    out.text = format_value(type, *out.value) + " (the identity)";
  }
  return out;
}

struct WriteStory {
  std::string explanation;
  std::vector<Payload> related;    // operand values, and the race-free result: the distractors
};

// How the trace produced the write: "thread 5: buffer2_s[3] (x2..x3) + buffer2_s[5] (x4..x5) = x2..x5".
WriteStory explain_write(const Trace& t, const std::vector<Hazard>& hazards, const Event& w) {
  const ValueType type = t.meta.type;
  WriteStory story;
  const std::string result = format_value(type, w.value);
  const std::string who = "thread " + std::to_string(w.thread) + ": ";
  if (w.a.kind == Origin::OpResult && w.a.index >= 0 && static_cast<std::uint64_t>(w.a.index) < t.events.size() &&
      t.events[static_cast<std::size_t>(w.a.index)].kind == EventKind::Op) {
    const Event& op = t.events[static_cast<std::size_t>(w.a.index)];
    const Operand left = describe_operand(t, hazards, w, op.a, op.seq);
    const Operand right = describe_operand(t, hazards, w, op.b, op.seq);
    story.explanation = who + op_expression(t.meta.op, left.text, right.text) + " = " + result;
    for (const Operand* o : {&left, &right}) {
      if (o->value) story.related.push_back(*o->value);
      if (o->stale) story.explanation += ". Stale read: " + describe_hazard(t, *o->stale);
    }
    // The value a race-free run would have written: the stale operand replaced by the expected one.
    if (left.value && right.value && (left.stale || right.stale)) {
      const Payload l = left.stale && left.stale->has_expected ? left.stale->expected : *left.value;
      const Payload r = right.stale && right.stale->has_expected ? right.stale->expected : *right.value;
      story.related.push_back(apply_op(t.meta.op, type, l, r));
    }
  } else if (w.a.kind == Origin::Cell) {
    const Operand from = describe_operand(t, hazards, w, w.a, w.seq);
    story.explanation = who + "copied " + from.text + " unchanged";
    if (from.stale) story.explanation += ". Stale read: " + describe_hazard(t, *from.stale);
    if (from.value) story.related.push_back(*from.value);
  } else {
    story.explanation = who + "wrote " + result + (w.value == identity_of(t.meta.op, type) ? " (the identity)" : "");
  }
  return story;
}

// Up to four distinct answers with the right one at a position that varies with the cell.
void set_choices(const Trace& t, PredictQuestion& q, const std::vector<Payload>& distractors) {
  const ValueType type = t.meta.type;
  std::vector<std::string> choices{format_value(type, q.answer)};
  for (const Payload& p : distractors) {
    const std::string text = format_value(type, p);
    if (choices.size() < 4 && std::find(choices.begin(), choices.end(), text) == choices.end()) choices.push_back(text);
  }
  // Every operand alike (an and-scan of ones): the answer with its low bit flipped, for truth values the other one.
  if (choices.size() < 2 && type == ValueType::I32) choices.push_back(format_value(type, Payload::of(q.answer.as<std::int32_t>() ^ 1)));
  if (choices.size() < 2 && type == ValueType::I64)
    choices.push_back(format_value(type, Payload::of(q.answer.as<std::int64_t>() ^ std::int64_t{1})));
  const int at = static_cast<int>((q.index + q.step) % static_cast<std::int64_t>(choices.size()));
  std::rotate(choices.begin(), choices.begin() + (static_cast<int>(choices.size()) - at) % static_cast<int>(choices.size()),
              choices.end());
  q.choices = std::move(choices);
  q.correct = at;
}

// The last write of the step to each cell of `buffer`, operator results first.
std::vector<const Event*> step_writes(const Trace& t, const Step& s, int buffer, bool ops_only) {
  std::vector<const Event*> last;
  for (std::uint64_t i = s.first_event; i < s.end_event && i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (e.kind != EventKind::Write || e.buffer != buffer) continue;
    if (ops_only && e.a.kind != Origin::OpResult) continue;
    auto same = std::find_if(last.begin(), last.end(), [&](const Event* w) { return w->index == e.index; });
    if (same != last.end()) *same = &e;
    else last.push_back(&e);
  }
  std::sort(last.begin(), last.end(), [](const Event* a, const Event* b) { return a->index < b->index; });
  return last;
}

PredictQuestion question_about(QuestionKind kind, int step, int buffer, std::int64_t index, std::uint32_t thread) {
  PredictQuestion q;
  std::tie(q.kind, q.step, q.buffer, q.index, q.thread) = std::tuple(kind, step, buffer, index, thread);
  return q;
}

PredictQuestion value_question(const Trace& t, const std::vector<Hazard>& hazards, int step, const Event& w,
                               const std::vector<const Event*>& writes) {
  PredictQuestion q = question_about(QuestionKind::Value, step, w.buffer, w.index, w.thread);
  q.prompt = cell_name(t, w.buffer, w.index) + " after " + t.steps[static_cast<std::size_t>(step)].label();
  const BufferSnapshot& snap = t.snapshots[static_cast<std::size_t>(step)][w.buffer];
  q.answer = static_cast<std::size_t>(w.index) < snap.values.size() ? snap.values[static_cast<std::size_t>(w.index)] : w.value;
  WriteStory story = explain_write(t, hazards, w);
  q.explanation = std::move(story.explanation);
  std::vector<Payload> distractors = std::move(story.related);
  if (step > 0) {  // unchanged: the cell's value before the step
    const BufferSnapshot& before = t.snapshots[static_cast<std::size_t>(step) - 1][w.buffer];
    if (static_cast<std::size_t>(w.index) < before.values.size() && before.defined[static_cast<std::size_t>(w.index)])
      distractors.push_back(before.values[static_cast<std::size_t>(w.index)]);
  }
  for (const Event* other : writes) distractors.push_back(other->value);  // a neighbour's new value
  set_choices(t, q, distractors);
  return q;
}

// RAW: the reader saw the value another thread wrote in the step; WAR: it read before the overwrite.
std::optional<PredictQuestion> stale_question(const Trace& t, const Hazard& h, int step) {
  const bool raw = h.kind == HazardKind::RAW;
  if (h.kind == HazardKind::WAW || (raw && !h.has_expected)) return std::nullopt;
  const HazardAccess& reader = raw ? h.second : h.first;
  const HazardAccess& writer = raw ? h.first : h.second;
  const Payload before = raw ? h.expected : h.first.value;
  if (before == writer.value) return std::nullopt;  // the two answers would read the same
  const ValueType type = t.meta.type;
  PredictQuestion q = question_about(QuestionKind::Stale, step, h.buffer, h.index, reader.thread);
  q.prompt = "thread " + std::to_string(reader.thread) + " reads " + cell_name(t, h.buffer, h.index) + " while thread " +
             std::to_string(writer.thread) + " writes it, no barrier between: which value does the read see?";
  q.choices = {format_value(type, before) + " (from before the step: not stale)",
               format_value(type, writer.value) + " (thread " + std::to_string(writer.thread) + "'s new value: stale)"};
  q.correct = raw ? 1 : 0;
  q.answer = reader.value;
  q.explanation = describe_hazard(t, h) + (raw ? ": a stale read, the race" : ": this read was lucky, it came first");
  return q;
}

}  // namespace

std::vector<PredictQuestion> predict_questions(const Trace& t, const std::vector<Hazard>& hazards, int step, int buffer) {
  std::vector<PredictQuestion> out;
  if (step < 0 || static_cast<std::size_t>(step) >= t.steps.size() || static_cast<std::size_t>(step) >= t.snapshots.size())
    return out;
  const Step& s = t.steps[static_cast<std::size_t>(step)];
  if (buffer < 0)
    for (std::uint64_t i = s.first_event; i < s.end_event && i < t.events.size(); ++i)
      if (t.events[i].kind == EventKind::Write) buffer = t.events[i].buffer;
  if (buffer < 0 || static_cast<std::size_t>(buffer) >= t.snapshots[static_cast<std::size_t>(step)].size()) return out;
  std::vector<const Event*> writes = step_writes(t, s, buffer, true);
  if (writes.empty()) writes = step_writes(t, s, buffer, false);

  // A race: one stale read (RAW), one lucky read (WAR), and the cell the stale reader writes.
  const Hazard* raw = nullptr;
  const Hazard* war = nullptr;
  for (const Hazard& h : hazards) {
    if (h.step != step) continue;
    if (!raw && h.kind == HazardKind::RAW && stale_question(t, h, step)) raw = &h;
    if (!war && h.kind == HazardKind::WAR && stale_question(t, h, step)) war = &h;
  }
  for (const Hazard* h : {raw, war})
    if (h) out.push_back(*stale_question(t, *h, step));
  // Value questions: on a race step the cell the stale reader writes; otherwise the last cell (the
  // longest prefix so far) and one in the middle.
  const std::size_t wanted = std::min<std::size_t>(out.empty() ? 2 : 1, kMaxQuestionsPerStep - out.size());
  std::vector<const Event*> picked;
  if (raw)
    for (const Event* w : writes)
      if (w->thread == raw->second.thread && picked.empty()) picked.push_back(w);
  for (std::size_t at : {writes.size() - 1, writes.size() / 2})
    if (!writes.empty() && picked.size() < wanted && std::find(picked.begin(), picked.end(), writes[at]) == picked.end())
      picked.push_back(writes[at]);
  for (const Event* w : picked) out.push_back(value_question(t, hazards, step, *w, writes));
  return out;
}

TypedGrade grade_typed(const Trace& t, const PredictQuestion& q, std::string_view text) {
  TypedGrade g;
  std::optional<Payload> value;
  try {
    const std::vector<Payload> values = parse_value_list(text, t.meta.type);
    if (values.size() == 1) value = values.front();
    else g.error = "one value, please (" + std::to_string(values.size()) + " given)";
  } catch (const std::invalid_argument& e) {
    g.error = e.what();
  }
  if (!value) {  // a value with a comma inside: an invalid interval such as !x1..x4,x3..x6
    const auto b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t");
    if (b != std::string_view::npos) value = parse_value(t.meta.type, text.substr(b, e - b + 1));
    if (value) g.error.clear();
  }
  if (value) g.right = values_match(t.meta.type, q.answer, *value, static_cast<std::size_t>(std::max<std::int64_t>(1, t.meta.n)));
  return g;
}

}  // namespace sv
