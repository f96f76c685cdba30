// Where a long computation may give its thread back. The page has no threads: it grades a kernel a
// slice at a time between its frames (emulator/time_slice.hpp), and any stretch of work longer than
// a slice between two pause points holds a frame. The emulator's scheduler, the check and the
// analyses call pause_point(); a TimeSlicedJob installs the hook while one of its slices runs. The
// hook lives here, below every layer, so that an analysis can pause without knowing of emulators.
#pragma once

#include <cstddef>

namespace sv {

// How many events (or comparisons) an analysis looks at between two pause points: well under a
// millisecond natively, a few in the page.
inline constexpr std::size_t kPauseEvery = 4096;

using PauseHook = void (*)();

// Installs `hook` for this thread and returns the one it replaces (nullptr: none).
PauseHook set_pause_hook(PauseHook hook);

// Calls this thread's hook, if any: outside a time-sliced job, nothing happens.
void pause_point();

}  // namespace sv
