// Files embedded at build time: the kernel sources (kernels/block/NAME.hpp as "block/NAME.hpp", kernels/device/NAME.hpp as "device/NAME.hpp"), the
// assets (assets/narration/ALGO.txt as "narration/ALGO.txt") and the shaders ("shaders/NAME"), so the
// program needs no install directory to show its own source and narration or to draw.
#pragma once

#include <string_view>

namespace sv {

// The file's text, or an empty view when no such file was embedded.
std::string_view embedded_file(std::string_view name);

}  // namespace sv
