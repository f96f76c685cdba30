// Coroutine's switches on Asyncify (emulator/coroutine_wasm.hpp). Binaryen's Asyncify pass turns
// these four imports into its own functions: the function that calls start_unwind or stop_rewind
// (suspend) is where a coroutine's frames stop and start, and the one that calls stop_unwind and
// start_rewind (resume) is not instrumented, so the unwind ends there. Neither may be inlined
// into a caller: suspend() is called again from its start on every rewind.
#include "emulator/coroutine_wasm.hpp"

#include <emscripten/stack.h>

#include <utility>

extern "C" {
__attribute__((import_module("asyncify"), import_name("start_unwind"))) void asyncify_start_unwind(void* data);
__attribute__((import_module("asyncify"), import_name("stop_unwind"))) void asyncify_stop_unwind();
__attribute__((import_module("asyncify"), import_name("start_rewind"))) void asyncify_start_rewind(void* data);
__attribute__((import_module("asyncify"), import_name("stop_rewind"))) void asyncify_stop_rewind();
// Emscripten's C stack pointer (system/lib/compiler-rt/stack_ops.S).
void stackRestore(void* top);
}

namespace sv {

namespace {

// The buffer a finished emulator left on this thread, for the next one.
struct Spare {
  std::unique_ptr<char[]> base;
  std::size_t bytes = 0, stack_bytes = 0;
};
thread_local Spare spare;

}  // namespace

CoroutineStacks::CoroutineStacks(std::size_t count, std::size_t size) : stack_bytes_(size) {
  const std::size_t bytes = count * (size + kUnwindBytes);
  if (bytes == 0) return;
  if (spare.base && spare.stack_bytes == size && spare.bytes >= bytes) {
    base_ = spare.base.release();
    bytes_ = std::exchange(spare.bytes, 0);
    return;
  }
  base_ = new char[bytes];  // not cleared: nothing reads a stack before writing it
  bytes_ = bytes;
}

CoroutineStacks::~CoroutineStacks() {
  if (!base_) return;
  if (spare.bytes > bytes_) {
    delete[] base_;
    return;
  }
  spare.base.reset(base_);
  spare.bytes = bytes_;
  spare.stack_bytes = stack_bytes_;
}

CoroutineStacks::Slot CoroutineStacks::slot(std::size_t i) const {
  char* const start = base_ + i * (stack_bytes_ + kUnwindBytes);
  return {start, stack_bytes_, start + stack_bytes_};
}

void Coroutine::entry(Coroutine* self) { self->body_(); }

__attribute__((noinline)) void Coroutine::resume() {
  void* const caller_stack = reinterpret_cast<void*>(emscripten_stack_get_current());
  stackRestore(stack_pointer_);
  if (state_ == State::Suspended) {
    state_ = State::Rewinding;
    asyncify_start_rewind(&data_);
  } else {
    state_ = State::Running;
  }
  entry(this);
  if (state_ == State::Unwinding) {
    asyncify_stop_unwind();
    // Unwinding skipped the frames' epilogues: the C stack pointer is where the body left it.
    stack_pointer_ = reinterpret_cast<void*>(emscripten_stack_get_current());
    state_ = State::Suspended;
  }
  stackRestore(caller_stack);
}

__attribute__((noinline)) void Coroutine::suspend() {
  if (state_ == State::Rewinding) {  // called again by the rewound frames: go on from here
    state_ = State::Running;
    asyncify_stop_rewind();
    return;
  }
  data_ = {unwind_, unwind_ + CoroutineStacks::kUnwindBytes};
  state_ = State::Unwinding;
  asyncify_start_unwind(&data_);
}

}  // namespace sv
