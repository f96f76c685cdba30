// The runs behind `scanviz chart floats`: one emulator trace per (race-free block algorithm, n) of a
// float or double inclusive sum of a named float input (core/float_inputs.hpp), each read by
// analysis/float_error.hpp, and the sequential loop on the same input at every n.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/float_error.hpp"

namespace sv {

// 2^3 .. 2^12.
std::vector<std::int64_t> default_float_error_sizes();

// Sizes an algorithm cannot hold in one block are skipped (the loop takes them all). `only`: the
// algorithms to run (empty: every race-free one). Throws RequestError for an input or type the run
// refuses.
std::vector<FloatErrorPoint> measure_float_errors(ValueType type, const std::string& input, std::uint64_t seed,
                                                  const std::vector<std::int64_t>& sizes = default_float_error_sizes(),
                                                  const std::vector<std::string>& only = {});

}  // namespace sv
