// `scanviz check FILE.cu`: the report card of a scan kernel of the user's own as text or JSON (docs/cli.md).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

#include "cuda_subset/check.hpp"

namespace sv {

// The card as one JSON object (docs/cli.md lists its keys).
nlohmann::json report_json(const cuda::CheckReport& r);

// The card as text: the verdict, the launch, the cases, faults, hazards, why, work and steps, the GPU.
// `note`, when given, is a line saying why the check's block differs from the file's (check_notes.hpp).
void print_report(std::ostream& out, const cuda::CheckReport& r, const std::string& note = {});

}  // namespace sv
