// The pause hook (core/pause.hpp).
#include "core/pause.hpp"

#include <utility>

namespace sv {

namespace {

thread_local PauseHook hook = nullptr;

}  // namespace

PauseHook set_pause_hook(PauseHook next) { return std::exchange(hook, next); }

void pause_point() {
  if (hook) hook();
}

}  // namespace sv
