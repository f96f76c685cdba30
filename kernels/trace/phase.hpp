// Names and labels of the algorithm phases, as the trace and the slides write them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/phase.hpp"

namespace sv {

std::string_view phase_name(Phase p);                     // "stride", "up-sweep", ...
std::optional<Phase> parse_phase_name(std::string_view s);
std::string phase_label(Phase p, std::int64_t param);     // "stride = 4", "load", "down-sweep stride = 2"

}  // namespace sv
