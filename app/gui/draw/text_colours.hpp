// The colours of text that judges: green for right, red for wrong or an error, the same in every
// panel (a verdict, a refusal, an answer).
#pragma once

#include <imgui.h>

namespace sv::gui {

inline const ImVec4 kGood(0.17f, 0.54f, 0.24f, 1);
inline const ImVec4 kBad(0.88f, 0.19f, 0.19f, 1);

}  // namespace sv::gui
