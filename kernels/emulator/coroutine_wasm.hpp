// Coroutine (emulator/coroutine.hpp) on Asyncify, without JavaScript: the build links with
// -sASYNCIFY, and a suspending coroutine unwinds its wasm frames into its own buffer up to the
// resume() that ran it, which rewinds them the next time. Only the coroutine's frames move; the
// scheduler that resumes it stays where it is, and no switch leaves WebAssembly. (Emscripten's
// fibers unwind both sides through JavaScript on every switch: about three times slower here.)
// The C stack of a coroutine's frames (its locals whose address is taken) is its own buffer.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace sv {

// The stacks of many coroutines (a block's threads) in one buffer: each slot a C stack and the
// room for its unwound frames. The buffer of the last emulator that ran on this thread is kept for
// the next when it is large enough (a buffer each took a tenth of recording a block of 1024).
class CoroutineStacks {
 public:
  // Room for a suspended coroutine's wasm locals and call frames.
  static constexpr std::size_t kUnwindBytes = 32 * 1024;
  struct Slot {
    char* stack;  // its lowest byte
    std::size_t stack_bytes;
    char* unwind;  // kUnwindBytes
  };

  CoroutineStacks(std::size_t count, std::size_t size);
  ~CoroutineStacks();
  CoroutineStacks(const CoroutineStacks&) = delete;
  CoroutineStacks& operator=(const CoroutineStacks&) = delete;

  // Every coroutine on these stacks must be gone before the CoroutineStacks is.
  Slot slot(std::size_t i) const;

 private:
  char* base_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t stack_bytes_ = 0;
};

class Coroutine {
 public:
  Coroutine() = default;
  Coroutine(Coroutine&&) noexcept = default;
  Coroutine& operator=(Coroutine&&) noexcept = default;

  // Starts `body` suspended on a stack of `stack_bytes` of its own (kept for the next body of the
  // same size).
  template <class F>
  void start(std::size_t stack_bytes, F&& body) {
    if (own_bytes_ != stack_bytes) {  // not cleared: nothing reads a stack before writing it
      own_bytes_ = stack_bytes;
      own_.reset(new char[stack_bytes + CoroutineStacks::kUnwindBytes]);
    }
    start({own_.get(), stack_bytes, own_.get() + stack_bytes}, std::forward<F>(body));
  }
  // The same on slot `slot` of a block's stacks (CoroutineStacks), which must outlive the body.
  template <class F>
  void start(CoroutineStacks::Slot slot, F&& body) {
    body_ = std::forward<F>(body);
    unwind_ = slot.unwind;
    stack_pointer_ = slot.stack + (slot.stack_bytes & ~std::size_t{15});  // stacks grow down
    state_ = State::Fresh;
  }
  // Scheduler side: runs the body until it suspends or returns. What the body throws goes on
  // through here (Emscripten's exceptions are JavaScript's: the frame that catches it puts the C
  // stack pointer back), and the body is over.
  void resume();
  // Body side: back to the resume() that ran it.
  void suspend();
  // Drops the body. An unfinished one is abandoned without unwinding: what its frames own leaks,
  // which happens only when an emulation stops on an error.
  void reset() { body_ = nullptr; }

 private:
  // Fresh: never ran; Running: on the stack now; Unwinding: suspend() started the unwind;
  // Suspended: its frames are in unwind_; Rewinding: resume() is putting them back.
  enum class State { Fresh, Running, Unwinding, Suspended, Rewinding };
  // What Asyncify reads and writes: where the saved frames go next, and where the room ends.
  struct UnwindData {
    char* next;
    char* end;
  };

  static void entry(Coroutine* self);

  std::function<void()> body_;
  std::unique_ptr<char[]> own_;  // stack and unwind room of start(stack_bytes, body)
  std::size_t own_bytes_ = 0;
  char* unwind_ = nullptr;
  void* stack_pointer_ = nullptr;  // the C stack's top while suspended
  UnwindData data_{};
  State state_ = State::Fresh;
};

}  // namespace sv
