// One run as the user asks for it: a typed value with one key=value text form, one validator whose
// errors name the field, and the one place that turns it into the run an executor takes
// (BlockRunConfig: the input drawn, the application's input made). The command line's flags, the
// window's lesson controls, the page's query string and a trace's meta are views of it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ops.hpp"
#include "run/config.hpp"
#include "trace/trace.hpp"

namespace sv {

struct RunRequest {
  std::string algorithm;                        // algo: a block or device-wide algorithm's name
  std::optional<std::int64_t> n;                // empty: 8, or the number of input values
  std::int32_t block = 0;                       // threads per block; 0: the algorithm's default
  std::optional<std::int32_t> warp;             // warp width (warp-*), or the emulator's lockstep
  std::optional<OpKind> op;                     // empty: sum
  std::optional<ValueType> type;                // empty: the operator's default type
  bool exclusive = false;
  std::string input;                            // empty: random values of `seed` (read: "random:SEED"); "slides"; or "3,6,7,4"
  std::uint64_t seed = 1;                       // random input and flags, and a random schedule without its own
  std::string schedule;                         // emulator warp schedule (Schedule::parse); empty: in-order
  std::map<std::string, std::string> options;   // device-wide switches (option=KEY=VALUE, repeatable)
  std::string flags;                            // segment heads: "1,0,0,1" or "random:P"; empty: not segmented
  std::string app;                              // "", "compact" or "allocate"
  std::string predicate;                        // app=compact: "x > 0"
  std::string executor = "auto";                // auto, gpu or emulator
  std::uint64_t amplify = 0;                    // GPU race amplifier seed (0: off)
  std::string launch;                           // a kernel of your own: NAME<<<GRID, BLOCK, SHARED>>>(ARGS) (run/launch.hpp)

  bool operator==(const RunRequest&) const = default;
};

// The keys of the text form, in the order the printer writes them; the command line's flags are the
// same words (--algo, --n, ...). `scan` is read too (the window's and links' form of flags and app).
inline constexpr std::array<std::string_view, 17> kRequestKeys = {
    "algo", "n",     "block", "warp",  "op",        "type",     "exclusive", "input",
    "seed", "schedule", "option", "flags", "app", "predicate", "executor", "amplify", "launch"};

// A request that cannot run. `field` is the key at fault (or "scan", where that form was given); the
// text names fields as {key}, which each view spells its own way (the command line --key, a link
// key): request_error_text. what() spells them as bare keys.
struct RequestError : std::invalid_argument {
  RequestError(std::string field, const std::string& text);
  std::string field;
  std::string text;  // with {key} marks
};

// The error's text with each {key} written `prefix` + key ("--" on the command line).
std::string request_error_text(const RequestError& e, std::string_view prefix);

// Sets one field from its text (what a flag, a link or a line of the text form carries), checking
// what the text alone can tell (a number, a known operator or type or schedule, option KEY=VALUE
// given once, ...). Throws RequestError naming the field; an unknown key is field "".
void set_field(RunRequest& r, std::string_view key, std::string_view value);

// The fields that differ from a default request, as (key, value) in kRequestKeys order; one
// ("option", "KEY=VALUE") per switch. set_field over them gives the request back.
std::vector<std::pair<std::string, std::string>> request_fields(const RunRequest& r);

// The text form: one key=value a line (blank lines and lines starting with # are skipped), the value
// the rest of the line. print_request(parse_request(t)) lists the same fields as t.
RunRequest parse_request(std::string_view text);
std::string print_request(const RunRequest& r);

// Every check that needs no input values: the algorithm known (and not empty), n, seed, warp and
// the switches' fields for the algorithm, operator and type together, the application's operator
// and type, what the GPU executor cannot run. Throws RequestError naming the field.
void validate_request(const RunRequest& r);

// The run the request describes: validated, the input drawn or parsed, segment flags drawn, the
// application's input made (make_application_input). The one place a run's input is made.
BlockRunConfig run_config(const RunRequest& r);

// Turns c.input (empty: random values of c.input_seed) into the scan of an application: `compact`
// keeps the values passing `predicate` (the input becomes its 0/1 flags), `allocate` takes them as
// requests; random requests are sizes 0..9 (v mod 10), given ones must not be negative.
void make_application_input(BlockRunConfig& c, std::string_view app, std::string_view predicate);

// The request a trace was recorded from: its meta read back (the values typed, or the seed of a
// random input), so run_config of it records the same run.
RunRequest request_from_meta(const TraceMeta& m);

}  // namespace sv
