// A trace in the Chrome Trace Event Format (its JSON object form), which Perfetto (ui.perfetto.dev)
// and chrome://tracing open: `scanviz export --format chrome-trace` (docs/cli.md says what is drawn).
#pragma once

#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace sv {

// A device-wide trace (one with tile events), from a GPU or the emulator's simulated multiprocessors:
// pid 1 is the device and each tid a lane of one (multiprocessor, resident slot), a tile taking the
// first slot of its multiprocessor free when it starts, so tiles that overlap on one multiprocessor
// never share a lane. A tile is a complete ("X") span from its start to its end, its look-back's
// waits are spans nested in it, its other events (publish, inspect, record, the pipelined kernel's
// warp roles) instants on its lane, and each inspection that read a published flag is a flow from
// that publish to the read. Clock: GPU nanoseconds since the first tile event, written in us; the
// emulator's cycles written as 1 us each.
//
// Any other trace (a block-level scan, a kernel of your own): pid = block + 1, a tid per thread (the
// threads of all blocks numbered one after another from 1, so no tid is in two processes; within one
// block tid order is thread order), one span per step in which the thread read, wrote or applied the
// operator, on the step clock (step k is [k, k + 1) us: the emulator's trace has no wall time), and
// each barrier arrival an instant at the end of its step.
//
// Every pid and tid used has its process_name, thread_name and thread_sort_index; none is 0. The
// events come metadata first, then by ts, a span before the spans it encloses.
nlohmann::json chrome_trace(const Trace& trace);

}  // namespace sv
