// A body that runs on a stack of its own: the scheduler resumes it, it suspends itself back to the
// scheduler, one at a time on one thread. The emulator runs every GPU thread (and every block of a
// device-wide scan) as one. Natively it is a Boost.Context fiber; in a WebAssembly build, which has
// no stack switching of its own, Asyncify unwinds the body's frames into a buffer when it suspends
// and rewinds them when it is resumed; the scheduler's frames stay where they are.
// A coroutine must not move while it has a body (the body's entry keeps its address). What the
// body throws is thrown by the resume() that ran it, and the body is over: the scheduler catches
// it, on the web without a JavaScript frame between every switch and the body (Emscripten catches
// an exception through one).
// CoroutineStacks(count, size) holds the stacks of many coroutines (a block's threads) in one
// mapping or buffer, kept on the thread for the next block; start(stacks.slot(i), body) uses slot i.
#pragma once

#ifdef __EMSCRIPTEN__
#include "emulator/coroutine_wasm.hpp"
#else
#include "emulator/coroutine_boost.hpp"
#endif
