// A body that runs on a stack of its own: the scheduler resumes it, it suspends itself back to the
// scheduler, one at a time on one thread. The emulator runs every GPU thread (and every block of a
// device-wide scan) as one. Natively it is a Boost.Context fiber; in a WebAssembly build, which has
// no stack switching of its own, it is an Emscripten fiber (Asyncify unwinds and rewinds the stack).
// A coroutine must not move while it has a body (the body's entry keeps its address).
// run_scheduler(f) runs f, the loop that resumes coroutines, to its end; in the web build on a
// stack of its own, which makes each switch cheaper. CoroutineStacks(count, size) holds the stacks
// of many coroutines (a block's threads): natively one mapping (emulator/fiber_stacks.hpp), in the
// web build the size each coroutine's own buffer takes; start(stacks.slot(i), body) uses slot i.
#pragma once

#ifdef __EMSCRIPTEN__
#include "emulator/coroutine_wasm.hpp"
#else
#include "emulator/coroutine_boost.hpp"
#endif
