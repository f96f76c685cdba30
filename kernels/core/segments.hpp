// Segment flags of a segmented scan on the host: parsing them, seeded random ones, and packing values
// with their flags into the (value, flag) pairs the kernels scan (core/segmented.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv {

// "1,0,0,1,0": one flag per element, each 0 or 1. Throws std::invalid_argument naming the bad item.
std::vector<std::uint8_t> parse_flag_list(std::string_view text);
// Seeded flags: each element a head with probability `density` (0..1); element 0 is always a head.
std::vector<std::uint8_t> random_flags(std::size_t n, double density, std::uint64_t seed);
// "1,0,1" or "random:0.25": what --flags takes; n is the input's length. Throws std::invalid_argument
// with a one-line reason (a list of the wrong length, a density outside 0..1).
std::vector<std::uint8_t> flags_from_option(std::string_view text, std::size_t n, std::uint64_t seed);

// The (value, flag) pairs of a segmented scan's input, and the values of its output's pairs.
std::vector<Payload> pack_segmented(ValueType type, const std::vector<Payload>& values,
                                    const std::vector<std::uint8_t>& flags);
std::vector<Payload> unpack_segmented(ValueType type, const std::vector<Payload>& pairs);
// "--flags: the GPU's segmented kernels are built for int32 ... not double (...)": the GPU executors'
// refusal of a type visit_segmented_gpu_op has no kernels for.
std::string segmented_gpu_type_error(ValueType type);

// Whether a pair's flag is set (a segment head, or a run of pairs containing one).
bool segment_flag(ValueType type, const Payload& pair);

}  // namespace sv
