// Coroutine (emulator/coroutine.hpp) on Emscripten fibers: the build links with -sASYNCIFY, which
// saves a suspended context's wasm frames into that context's buffer and rewinds them on resume.
// Whoever resumes a coroutine is saved the same way: the coroutine running now (its own buffers),
// or, when none runs, the program's main context (one buffer for the whole program).
#pragma once

#include <emscripten/fiber.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>

namespace sv {

// The web build's stacks are the coroutines' own buffers: a slot is just their size.
class CoroutineStacks {
 public:
  CoroutineStacks(std::size_t, std::size_t size) : size_(size) {}
  std::size_t slot(std::size_t) const { return size_; }

 private:
  std::size_t size_;
};

class Coroutine {
 public:
  Coroutine() = default;
  Coroutine(Coroutine&&) noexcept = default;
  Coroutine& operator=(Coroutine&&) noexcept = default;

  template <class F>
  void start(std::size_t stack_bytes, F&& body) {
    body_ = std::forward<F>(body);
    if (stack_bytes_ != stack_bytes) {  // a slot reused for the next block keeps its buffers
      stack_bytes_ = stack_bytes;
      stack_ = std::make_unique<char[]>(stack_bytes);
      unwind_ = std::make_unique<char[]>(kUnwindBytes);
    }
    emscripten_fiber_init(&fiber_, &Coroutine::entry, this, stack_.get(), stack_bytes_, unwind_.get(), kUnwindBytes);
  }
  void resume() noexcept {
    Coroutine* const resumer = running();
    resumer_ = resumer ? &resumer->fiber_ : main_context();
    running() = this;
    emscripten_fiber_swap(resumer_, &fiber_);
    running() = resumer;
  }
  void suspend() noexcept { emscripten_fiber_swap(&fiber_, resumer_); }
  // Drops the body. An unfinished one is abandoned without unwinding: what its frames own leaks,
  // which happens only when an emulation stops on an error.
  void reset() { body_ = nullptr; }

 private:
  // Room for a suspended context's wasm locals and call frames (Asyncify's data).
  static constexpr std::size_t kUnwindBytes = 32 * 1024;
  static constexpr std::size_t kMainUnwindBytes = 256 * 1024;

  static Coroutine*& running() {
    static Coroutine* current = nullptr;
    return current;
  }
  static emscripten_fiber_t* main_context() {
    static emscripten_fiber_t context;
    static const std::unique_ptr<char[]> unwind = std::make_unique<char[]>(kMainUnwindBytes);
    emscripten_fiber_init_from_current_context(&context, unwind.get(), kMainUnwindBytes);
    return &context;
  }
  static void entry(void* self_pointer) {
    auto* self = static_cast<Coroutine*>(self_pointer);
    self->body_();
    // An Emscripten fiber's entry must not return: back to the resumer for good.
    emscripten_fiber_swap(&self->fiber_, self->resumer_);
  }

  std::function<void()> body_;
  std::unique_ptr<char[]> stack_, unwind_;
  std::size_t stack_bytes_ = 0;
  emscripten_fiber_t fiber_{};
  emscripten_fiber_t* resumer_ = nullptr;
};

// Runs a scheduler of coroutines (run_scheduler in emulator/coroutine.hpp) on a stack of its own:
// every switch saves and restores the whole stack of the context it leaves or enters, so the
// scheduler switches from a few frames deep instead of from under the caller's. What it throws is
// thrown here.
template <class F>
void run_scheduler(F&& scheduler) {
  std::exception_ptr failure;
  Coroutine own;
  own.start(64 * 1024, [&] {
    try {
      scheduler();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  own.resume();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace sv
