// Text views of a trace: the steps as the slides draw them, and the stats report (text and JSON).
#include "text_view.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "algorithms.hpp"
#include "analysis/analysis.hpp"
#include "analysis/block_races.hpp"
#include "analysis/lookback.hpp"
#include "analysis/pipeline.hpp"
#include "core/values.hpp"
#include "analysis/divergence.hpp"
#include "divergence_text.hpp"
#include "application_text.hpp"

namespace sv {

namespace {

// The hazards show and stats list: shared memory's, and for a kernel of the user's own launched in
// several blocks the races between them (analysis/block_races.hpp), which the card reports too.
std::vector<Hazard> trace_hazards(const Trace& t) {
  std::vector<Hazard> hazards = find_hazards(t);
  if (is_own_kernel_algorithm(t.meta.algorithm))
    for (Hazard& h : find_block_races(t)) hazards.push_back(h);
  return hazards;
}

constexpr std::size_t kCellsPerLine = 16;
constexpr std::size_t kHazardsShownPerStep = 4;

std::string describe_run(const Trace& t) {
  const TraceMeta& m = t.meta;
  std::ostringstream s;
  s << m.algorithm << " | n = " << m.n << " | " << op_name(m.op);
  if (m.op != OpKind::Interval) s << " (" << type_name(m.type) << ")";
  s << " | " << (m.exclusive ? "exclusive" : "inclusive") << " | block " << m.block << " threads, " << m.capacity
    << " elements" << application_summary(t) << " | " << m.executor.kind;
  if (m.executor.kind == "emulator") {
    s << ", schedule " << m.executor.schedule;
    if (m.executor.schedule == "random") s << ":" << m.executor.seed;
  } else if (!m.executor.device.empty()) {
    s << " (" << m.executor.device << ")";
  }
  return s.str();
}

std::string cell_text(const Trace& t, const BufferSnapshot& snap, std::size_t i) {
  return snap.defined[i] ? format_value(t.meta.type, snap.values[i]) : "-";
}

// One buffer's cells, 16 to a line, each chunk as wide as its widest label. Marks: * written by an
// operator this step, ! read by another thread after being overwritten (RAW), ~ other hazards.
void print_row(std::ostream& out, const Trace& t, const std::string& name, const BufferSnapshot& snap,
               const std::set<std::int64_t>& op_cells, const std::map<std::int64_t, HazardKind>& hazard_cells) {
  std::vector<std::string> cells(snap.values.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    cells[i] = cell_text(t, snap, i);
    auto h = hazard_cells.find(static_cast<std::int64_t>(i));
    if (h != hazard_cells.end()) cells[i] += h->second == HazardKind::RAW ? "!" : "~";
    else if (op_cells.count(static_cast<std::int64_t>(i))) cells[i] += "*";
  }
  const std::string label = name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ');
  for (std::size_t start = 0; start < cells.size(); start += kCellsPerLine) {
    const std::size_t end = std::min(cells.size(), start + kCellsPerLine);
    std::size_t width = 3;
    for (std::size_t i = start; i < end; ++i) width = std::max({width, cells[i].size(), std::to_string(i).size() + 2});
    auto pad = [width](const std::string& s) { return s + std::string(width + 1 - s.size(), ' '); };
    if (cells.size() > kCellsPerLine) {
      out << "  " << std::string(label.size(), ' ');
      for (std::size_t i = start; i < end; ++i) {
        std::string index = "[";  // appended: GCC 12 warns falsely (-Wrestrict) on "[" + string
        index += std::to_string(i);
        index += ']';
        out << pad(index);
      }
      out << "\n";
    }
    out << "  " << label;
    for (std::size_t i = start; i < end; ++i) out << pad(cells[i]);
    out << "\n";
  }
}

nlohmann::json lookback_json(const Trace& t);  // below

}  // namespace

nlohmann::json value_json(ValueType type, const Payload& v) {
  switch (type) {
    case ValueType::I32: return v.as<std::int32_t>();
    case ValueType::I64: return v.as<std::int64_t>();
    case ValueType::F32:
      if (std::isfinite(v.as<float>())) return v.as<float>();
      break;
    case ValueType::F64:
      if (std::isfinite(v.as<double>())) return v.as<double>();
      break;
    case ValueType::Interval: break;
  }
  return format_value(type, v);
}

void print_steps(std::ostream& out, const Trace& t) {
  out << describe_run(t) << "\n";
  print_segments(out, t);
  const auto hazards = trace_hazards(t);
  std::map<int, std::vector<const Hazard*>> hazards_by_step;
  for (const Hazard& h : hazards) hazards_by_step[h.step].push_back(&h);
  // A read of an overwritten value (RAW) is what breaks a result: list those first.
  for (auto& [step, list] : hazards_by_step)
    std::stable_sort(list.begin(), list.end(), [](const Hazard* a, const Hazard* b) { return a->kind < b->kind; });
  const Metrics metrics = compute_metrics(t);

  for (std::size_t k = 0; k < t.steps.size() && k < t.snapshots.size(); ++k) {
    const Step& step = t.steps[k];
    const StepMetrics& sm = metrics.per_step[k];
    out << "\nstep " << k << ": " << step.label() << "   (line " << step.line << ")";
    if (sm.operations) out << "   " << sm.operations << " operations";
    out << "   active threads " << thread_ranges(active_threads(t, k)) << "\n";

    // The buffers the step wrote, with the cells written by an operator marked * and hazards !.
    std::map<int, std::set<std::int64_t>> op_cells;
    std::map<int, std::map<std::int64_t, HazardKind>> hazard_cells;
    std::set<int> written;
    for (std::uint64_t i = step.first_event; i < step.end_event; ++i) {
      const Event& e = t.events[i];
      if (e.kind != EventKind::Write) continue;
      written.insert(e.buffer);
      if (e.a.kind == Origin::OpResult) op_cells[e.buffer].insert(e.index);
    }
    for (const Hazard* h : hazards_by_step[static_cast<int>(k)]) {
      auto [it, added] = hazard_cells[h->buffer].emplace(h->index, h->kind);
      if (!added) it->second = std::min(it->second, h->kind);  // RAW wins
    }
    for (int b : written) print_row(out, t, t.buffers[b].name, t.snapshots[k][b], op_cells[b], hazard_cells[b]);

    const auto& step_hazards = hazards_by_step[static_cast<int>(k)];
    for (std::size_t i = 0; i < step_hazards.size() && i < kHazardsShownPerStep; ++i)
      out << "  hazard " << describe_hazard(t, *step_hazards[i]) << "\n";
    if (step_hazards.size() > kHazardsShownPerStep)
      out << "  ... and " << step_hazards.size() - kHazardsShownPerStep << " more hazards in this step\n";
  }
  const Correctness c = check_result(t);
  out << "\nresult: " << outcome_name(c.outcome);
  if (!c.wrong.empty()) {
    const auto i = static_cast<std::size_t>(c.wrong.front());
    out << " (" << c.wrong.size() << " of " << t.meta.n << " outputs differ; first at [" << i << "]: "
        << format_value(t.meta.type, t.result.output[i]) << ", expected " << format_value(t.meta.type, c.reference[i])
        << ")";
  }
  out << "   marks: * operator result, ! read after another thread overwrote it (RAW), ~ other hazard, - not "
         "written yet\n";
  print_application(out, t);
}

nlohmann::json stats_json(const Trace& t) {
  using nlohmann::json;
  const Metrics m = compute_metrics(t);
  const auto hazards = trace_hazards(t);
  const Correctness c = check_result(t);
  const TraceMeta& meta = t.meta;
  auto values = [&](const std::vector<Payload>& v) {
    json a = json::array();
    for (const auto& p : v) a.push_back(value_json(meta.type, p));
    return a;
  };
  json j;
  j["algorithm"] = meta.algorithm;
  j["n"] = meta.n;
  j["op"] = op_name(meta.op);
  j["type"] = type_name(meta.type);
  j["exclusive"] = meta.exclusive;
  j["block"] = meta.block;
  j["capacity"] = meta.capacity;
  j["executor"] = {{"kind", meta.executor.kind}, {"device", meta.executor.device},
                   {"schedule", meta.executor.schedule}, {"seed", meta.executor.seed}};
  j["steps"] = m.steps;
  j["operations"] = m.operations;
  j["barriers"] = m.barriers;
  if (auto cf = closed_form(meta.algorithm, meta.n, meta.exclusive, meta.warp_width()); cf && meta.capacity == meta.n)
    j["closed_form"] = {{"steps", cf->steps}, {"operations", cf->operations}};
  else
    j["closed_form"] = nullptr;
  json per_step = json::array();
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const StepMetrics& s = m.per_step[k];
    per_step.push_back({{"label", t.steps[k].label()}, {"operations", s.operations},
                        {"active_threads", s.active_threads}, {"reads", s.reads}, {"writes", s.writes}});
  }
  j["per_step"] = per_step;
  json accesses = json::object();
  for (std::size_t b = 0; b < t.buffers.size(); ++b)
    accesses[t.buffers[b].name] = {{"reads", m.per_buffer[b].reads}, {"writes", m.per_buffer[b].writes}};
  j["accesses"] = accesses;
  j["divergence"] = divergence_applies(t) ? divergence_json(t) : nlohmann::json(nullptr);
  json hz = json::array();
  for (const Hazard& h : hazards) {
    auto access = [&](const HazardAccess& a) {
      return json{{"thread", a.thread}, {"block", a.block}, {"access", a.write ? "write" : "read"}, {"line", a.line},
                  {"value", value_json(meta.type, a.value)}, {"event", a.seq}};
    };
    json o = {{"kind", hazard_kind_name(h.kind)}, {"buffer", t.buffers[h.buffer].name}, {"index", h.index},
              {"block", h.block}, {"between_blocks", h.between_blocks}, {"step", h.step}, {"same_warp", h.same_warp},
              {"first", access(h.first)}, {"second", access(h.second)}};
    o["expected"] = h.has_expected ? value_json(meta.type, h.expected) : json(nullptr);
    hz.push_back(o);
  }
  j["hazards"] = hz;
  j["outcome"] = outcome_name(c.outcome);
  if (c.outcome == Outcome::Deadlock) j["waiting_tiles"] = t.result.waiting;
  if (!t.tile_events.empty()) j["lookback"] = lookback_json(t);
  j["segment_flags"] = meta.flags.empty() ? json(nullptr) : json(meta.flags);
  j["application"] = application_json(t);
  j["wrong_indices"] = c.wrong;
  j["output"] = values(t.result.output);
  j["reference"] = values(c.reference);
  return j;
}

namespace {

void print_lookback(std::ostream& out, const Trace& t) {
  const LookbackSummary s = summarize_lookback(t);
  out << "tiles              " << t.meta.grid << " (" << t.meta.block << " threads x " << t.meta.items_per_thread
      << " items = " << t.meta.capacity << " elements per tile), " << t.steps.size() << " launches\n";
  if (s.inspections == 0 && s.waited_tiles == 0) return;  // no descriptors: a multi-launch scan
  if (is_pipelined_trace(t)) {
    const PipelineRun p = make_pipeline_run(t);
    out << "pipelined          " << p.blocks.size() << " blocks (one a multiprocessor), " << p.stages
        << " stages of 24 KB each; " << pipeline_summary(p) << "\n";
  }
  out << "look-back          " << s.inspections << " descriptor inspections, " << s.waited_tiles
      << " tiles waited, at most " << s.max_spins << " polls by one tile, " << s.stale_reads << " stale reads\n";
  int shown = 0;
  for (const TileSummary& tile : s.tiles)
    for (const TileInspection& i : tile.inspections)
      if (i.stale && shown++ < 5) out << "  " << describe_inspection(t, tile.tile, i) << "\n";
  for (const TileSummary& tile : s.tiles)
    if (tile.waited && !tile.ended && shown++ < 10)
      out << "  tile " << tile.tile << " (block " << tile.block << ", SM " << tile.sm << ") waits for tile "
          << tile.waiting_for << " since " << tile.wait_began << "\n";
}

nlohmann::json lookback_json(const Trace& t) {
  using json = nlohmann::json;
  const LookbackSummary s = summarize_lookback(t);
  json tiles = json::array();
  for (const TileSummary& tile : s.tiles) {
    json insp = json::array();
    for (const TileInspection& i : tile.inspections)
      insp.push_back({{"tile", i.target}, {"flag", tile_flag_name(i.flag)}, {"value", value_json(t.meta.type, i.value)},
                      {"spins", i.spins}, {"stale", i.stale}});
    tiles.push_back({{"tile", tile.tile}, {"block", tile.block}, {"sm", tile.sm}, {"start", tile.start},
                     {"end", tile.ended ? json(tile.end) : json(nullptr)},
                     {"aggregate_at", tile.a_at >= 0 ? json(tile.a_at) : json(nullptr)},
                     {"inclusive_at", tile.p_at >= 0 ? json(tile.p_at) : json(nullptr)},
                     {"waited", tile.waited}, {"spins", tile.spins}, {"inspections", insp}});
  }
  return {{"tiles", tiles}, {"inspections", s.inspections}, {"stale_reads", s.stale_reads},
          {"waited_tiles", s.waited_tiles}, {"max_spins", s.max_spins}};
}

}  // namespace

void print_stats(std::ostream& out, const Trace& t) {
  const Metrics m = compute_metrics(t);
  auto hazards = trace_hazards(t);
  std::stable_sort(hazards.begin(), hazards.end(), [](const Hazard& a, const Hazard& b) { return a.kind < b.kind; });
  const Correctness c = check_result(t);
  const AlgorithmInfo* info = find_algorithm(t.meta.algorithm);
  out << describe_run(t) << "\n";
  auto closed = closed_form(t.meta.algorithm, t.meta.n, t.meta.exclusive, t.meta.warp_width());
  if (t.meta.capacity != t.meta.n) closed.reset();  // padded: the closed forms are for n = capacity
  // Device-wide traces record tiles, not elements: their lines are the look-back's (below).
  if (!t.events.empty() || t.tile_events.empty()) {
    out << "steps (depth)      " << m.steps;
    if (blocks_one_after_another(t.meta)) {
      const std::size_t launches = launch_first_blocks(t.meta).size();
      if (launches > 1) out << "   the deepest block of each of " << launches << " launches, added (a launch's blocks run at once on a GPU)";
      else out << "   the deepest of " << t.meta.grid << " blocks (run one after another here, at once on a GPU)";
    }
    if (closed && info) out << "   closed form " << info->steps << " = " << closed->steps;
    out << "\noperations (work)  " << m.operations;
    if (closed && info) out << "   closed form " << info->work << " = " << closed->operations;
    out << "\nbarriers           " << m.barriers << "\n";
    out << "per step           ";
    for (std::size_t k = 0; k < t.steps.size(); ++k)
      if (m.per_step[k].operations)
        out << t.steps[k].label() << ": " << m.per_step[k].operations << " ops by " << m.per_step[k].active_threads
            << " threads; ";
    out << "\naccesses           ";
    for (std::size_t b = 0; b < t.buffers.size(); ++b)
      out << t.buffers[b].name << " " << m.per_buffer[b].reads << "r/" << m.per_buffer[b].writes << "w  ";
    out << "\n";
    if (divergence_applies(t)) print_divergence(out, t);
  } else {
    out << "launches           ";
    for (std::size_t k = 0; k < t.steps.size(); ++k) out << (k ? ", " : "") << t.steps[k].label();
    out << "\n";
  }
  std::array<int, 3> by_kind{};
  for (const Hazard& h : hazards) ++by_kind[static_cast<std::size_t>(h.kind)];
  out << "hazards            " << hazards.size();
  if (!hazards.empty()) out << " (RAW " << by_kind[0] << ", WAR " << by_kind[1] << ", WAW " << by_kind[2] << ")";
  out << "\n";
  for (std::size_t i = 0; i < hazards.size() && i < 10; ++i)
    out << "  step " << hazards[i].step << ": " << describe_hazard(t, hazards[i]) << "\n";
  if (hazards.size() > 10) out << "  ... " << hazards.size() - 10 << " more (stats --json lists them all)\n";
  if (!t.tile_events.empty()) print_lookback(out, t);
  out << "outcome            " << outcome_name(c.outcome);
  if (c.outcome == Outcome::Deadlock) {
    out << ": every resident block waits on a tile that can never publish; waiting tiles";
    for (std::int64_t w : t.result.waiting) out << " " << w;
  } else if (!c.wrong.empty()) {
    out << ": " << c.wrong.size() << " of " << t.meta.n << " outputs differ from the reference";
  }
  out << "\n";
  print_application(out, t);
}

}  // namespace sv
