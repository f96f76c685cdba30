// The racy single-barrier Kogge-Stone: hazards under every schedule, wrong results under some, and
// the trace names who read what another thread had already overwritten. The fixed kernels: no hazard.
#include <doctest/doctest.h>

#include "analysis/analysis.hpp"
#include "helpers.hpp"

using namespace sv;

TEST_CASE("kogge-stone-racy: hazards under every schedule, for sizes of one and many warps") {
  for (std::int64_t n : {8, 33, 64, 100, 1024}) {
    for (const auto& schedule : sv_test::schedules()) {
      CAPTURE(n);
      CAPTURE(schedule);
      const Trace t = sv_test::record_interval("kogge-stone-racy", n, schedule);
      const auto hazards = find_hazards(t);
      CHECK_FALSE(hazards.empty());
      for (const Hazard& h : hazards) {
        CHECK(h.first.thread != h.second.thread);
        CHECK(t.buffers[h.buffer].space == Space::Shared);
        CHECK(h.first.seq < h.second.seq);
        CHECK((h.first.write || h.second.write));
      }
    }
  }
}

TEST_CASE("kogge-stone-racy: the in-order schedule breaks it at n = 64, and not every schedule does") {
  const Trace in_order = sv_test::record_interval("kogge-stone-racy", 64, "in-order");
  CHECK(in_order.result.outcome == Outcome::Wrong);
  CHECK(check_result(in_order).outcome == Outcome::Wrong);
  // Warp 1 running first reads its neighbours' cells before warp 0 overwrites them.
  CHECK(sv_test::record_interval("kogge-stone-racy", 64, "reverse").result.outcome == Outcome::Correct);
  // One warp runs in lockstep (reads before writes): the race cannot show within it.
  CHECK(sv_test::record_interval("kogge-stone-racy", 32, "in-order").result.outcome == Outcome::Correct);
  // Sum over int32 goes wrong too: the race is not an artefact of the interval operator.
  CHECK(sv_test::record("kogge-stone-racy", 64, OpKind::Sum, ValueType::I32, "in-order").result.outcome == Outcome::Wrong);
}

TEST_CASE("kogge-stone-racy at the slides' n = 8: threads on their own break it, a warp in lockstep hides it") {
  // The slides: thread 1 may update x[1] before thread 2 reads it. With every thread advancing on its
  // own (lockstep 1) the in-order schedule runs thread 1's step before thread 2's read.
  sv::BlockRunConfig c = sv_test::config("kogge-stone-racy", 8, OpKind::Sum, ValueType::I32, "in-order");
  c.warp = 1;
  const Trace own = record_block_scan(c);
  CHECK(own.meta.warp_width() == 1);
  CHECK(own.result.outcome == Outcome::Wrong);
  bool slides_race = false;
  for (const Hazard& h : find_hazards(own))
    slides_race |= h.kind == HazardKind::RAW && h.step == 1 && h.index == 1 && h.first.thread == 1 && h.second.thread == 2;
  CHECK(slides_race);
  // Reverse order reads each neighbour before it is overwritten: hazards, but a right result.
  c.schedule = *Schedule::parse("reverse");
  const Trace reverse = record_block_scan(c);
  CHECK_FALSE(find_hazards(reverse).empty());
  CHECK(reverse.result.outcome == Outcome::Correct);
  // In one warp of 32 every read of a step comes before its writes: correct at n = 8 under every schedule.
  for (const auto& schedule : sv_test::schedules()) {
    CAPTURE(schedule);
    CHECK(sv_test::record("kogge-stone-racy", 8, OpKind::Sum, ValueType::I32, schedule).result.outcome == Outcome::Correct);
  }
  // Lockstep widths between: a race across the warps of 2 and of 4 lanes.
  for (int lanes : {2, 4}) {
    c.warp = lanes;
    c.schedule = *Schedule::parse("in-order");
    CAPTURE(lanes);
    CHECK(record_block_scan(c).result.outcome == Outcome::Wrong);
  }
}

TEST_CASE("lockstep 1: the race-free block algorithms stay correct with every thread on its own") {
  for (const AlgorithmInfo& info : block_algorithms()) {
    if (info.racy || info.warp_level) continue;
    for (std::int64_t n : {8, 33, 100}) {
      for (const auto& schedule : sv_test::schedules()) {
        CAPTURE(info.name);
        CAPTURE(n);
        CAPTURE(schedule);
        sv::BlockRunConfig c = sv_test::config(std::string(info.name), n, OpKind::Interval, ValueType::Interval, schedule);
        c.warp = 1;
        const Trace t = record_block_scan(c);
        CHECK(find_hazards(t).empty());
        CHECK(check_result(t).outcome == Outcome::Correct);
      }
    }
  }
}

TEST_CASE("kogge-stone-racy: a RAW hazard names the reader, the writer and the value it should have read") {
  const Trace t = sv_test::record_interval("kogge-stone-racy", 64, "in-order");
  const auto hazards = find_hazards(t);
  int raw = 0;
  for (const Hazard& h : hazards) {
    if (h.kind != HazardKind::RAW) continue;
    ++raw;
    // The events the hazard points at are a write by one thread and a later read of the same cell
    // by another, in the same step, and the read saw the written value, not the one from before.
    const Event& w = t.events[h.first.seq];
    const Event& r = t.events[h.second.seq];
    CHECK(w.kind == EventKind::Write);
    CHECK(r.kind == EventKind::Read);
    CHECK(w.thread == h.first.thread);
    CHECK(r.thread == h.second.thread);
    CHECK(w.index == r.index);
    CHECK(w.buffer == r.buffer);
    CHECK(r.value == w.value);
    REQUIRE(h.has_expected);
    CHECK(h.expected != r.value);
    CHECK(step_of_event(t, w.seq) == step_of_event(t, r.seq));
    CHECK_FALSE(h.same_warp);  // in lockstep, only threads of different warps see each other's writes early
  }
  CHECK(raw > 0);
  // At stride 1 in-order, thread 32 reads cell 31 after thread 31 (warp 0) wrote x30..x31 into it.
  bool found = false;
  for (const Hazard& h : hazards)
    if (h.kind == HazardKind::RAW && h.index == 31 && h.second.thread == 32 && h.first.thread == 31 &&
        t.steps[h.step].label() == "stride = 1") {
      found = true;
      CHECK(format_value(ValueType::Interval, h.first.value) == "x30..x31");
      CHECK(format_value(ValueType::Interval, h.expected) == "x31");
      // Said with the emulator form's lines, or without them (the window, beside the CUDA form).
      const std::string line = std::to_string(t.events[h.first.seq].line);
      CHECK(describe_hazard(t, h) == "RAW buffer_s[31]: thread 31 wrote x30..x31 (line " + line +
                                         "), then thread 32 read it (line " + line + ") instead of x31");
      CHECK(describe_hazard(t, h, false) == "RAW buffer_s[31]: thread 31 wrote x30..x31, then thread 32 read it instead of x31");
    }
  CHECK(found);
}

TEST_CASE("kogge-stone and kogge-stone-double-buffer: no hazard and correct under every schedule") {
  for (const std::string& algo : sv_test::algorithms(sv_test::Rows::RaceFree)) {
    for (std::int64_t n : {8, 64, 100, 1024}) {
      for (const auto& schedule : sv_test::schedules()) {
        CAPTURE(algo);
        CAPTURE(n);
        CAPTURE(schedule);
        const Trace t = sv_test::record_interval(algo, n, schedule);
        CHECK(find_hazards(t).empty());
        CHECK(check_result(t).outcome == Outcome::Correct);
      }
    }
  }
}

TEST_CASE("schedules change the interleaving, not the race-free result") {
  const Trace a = sv_test::record_interval("kogge-stone-double-buffer", 100, "in-order");
  const Trace b = sv_test::record_interval("kogge-stone-double-buffer", 100, "random:99");
  REQUIRE(a.events.size() == b.events.size());
  bool differs = false;
  for (std::size_t i = 0; i < a.events.size() && !differs; ++i) differs = a.events[i].thread != b.events[i].thread;
  CHECK(differs);
  CHECK(a.result.output == b.result.output);
  // The same seed gives the same interleaving.
  const Trace c = sv_test::record_interval("kogge-stone-double-buffer", 100, "random:99");
  for (std::size_t i = 0; i < b.events.size(); ++i) CHECK(b.events[i].thread == c.events[i].thread);
}

TEST_CASE("lockstep: within a warp instruction all reads happen before any write") {
  // kogge-stone-racy with one warp: each step's reads by all 32 lanes precede the step's writes.
  const Trace t = sv_test::record_interval("kogge-stone-racy", 32, "in-order");
  for (std::size_t k = 1; k + 1 < t.steps.size(); ++k) {
    std::uint64_t last_read = 0, first_write = UINT64_MAX;
    for (std::uint64_t i = t.steps[k].first_event; i < t.steps[k].end_event; ++i) {
      const Event& e = t.events[i];
      if (e.kind == EventKind::Read) last_read = std::max(last_read, e.seq);
      if (e.kind == EventKind::Write) first_write = std::min(first_write, e.seq);
    }
    CHECK(last_read < first_write);
  }
}

TEST_CASE("hazards: the value read, not the trace order, tells RAW from WAR (GPU traces append out of order)") {
  // One shared cell, two threads. Interval 0: thread 0 writes 7. Interval 1: thread 0 writes 5 and
  // thread 1 reads. The trace lists the write first, but the read returned 7, the value from
  // before: the read happened first, a WAR. Had it returned 5 it would be a RAW expecting 7.
  auto make = [](int read_value) {
    Trace t;
    t.meta.type = ValueType::I32;
    t.buffers = {{"s", Space::Shared, 1}};
    auto add = [&](EventKind kind, std::uint32_t thread, int value) {
      Event e;
      e.seq = t.events.size();
      e.kind = kind;
      e.thread = thread;
      if (kind != EventKind::Barrier) {
        e.buffer = 0;
        e.index = 0;
        e.value = Payload::of(std::int32_t(value));
      }
      t.events.push_back(e);
    };
    add(EventKind::Write, 0, 7);
    add(EventKind::Barrier, 0, 0);
    add(EventKind::Barrier, 1, 0);
    add(EventKind::Write, 0, 5);
    add(EventKind::Read, 1, read_value);
    Step s;
    s.end_event = t.events.size();
    t.steps.push_back(s);
    return t;
  };
  const auto war = find_hazards(make(7));
  REQUIRE(war.size() == 1);
  CHECK(war[0].kind == HazardKind::WAR);
  CHECK(war[0].first.thread == 1);
  CHECK_FALSE(war[0].first.write);
  const auto raw = find_hazards(make(5));
  REQUIRE(raw.size() == 1);
  CHECK(raw[0].kind == HazardKind::RAW);
  CHECK(raw[0].first.thread == 0);
  CHECK(raw[0].expected.as<std::int32_t>() == 7);
}
