// Coroutine (emulator/coroutine.hpp) on Boost.Context fibers with guarded stacks.
#pragma once

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cstddef>
#include <exception>
#include <memory>
#include <utility>

#include "emulator/fiber_stacks.hpp"

// AddressSanitizer is told each switch between stacks (clang says it with __has_feature, GCC with
// __SANITIZE_ADDRESS__): without it an exception thrown on a fiber unpoisons the wrong stack, and
// the poison it leaves reads as a stack-use-after-scope later.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SV_ASAN_FIBERS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SV_ASAN_FIBERS 1
#endif
#ifdef SV_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace sv {

using CoroutineStacks = FiberStacks;

class Coroutine {
 public:
  // Starts `body` suspended, on a stack of `stack_bytes`; any earlier body is unwound first.
  template <class F>
  void start(std::size_t stack_bytes, F&& body) {
    reset();
    fiber_ = boost::context::fiber(std::allocator_arg, Noted<boost::context::protected_fixedsize_stack>{{stack_bytes}, this},
                                   entry(std::forward<F>(body)));
  }
  // The same on slot `slot` of a block's stacks (CoroutineStacks), which must outlive the body.
  template <class F>
  void start(FiberStacks::Slot slot, F&& body) {
    reset();
    fiber_ = boost::context::fiber(std::allocator_arg, Noted<FiberStacks::Slot>{slot, this}, entry(std::forward<F>(body)));
  }
  // Scheduler side: runs the body until it suspends or returns; what the body throws is thrown here.
  void resume() {
    switch_start(&scheduler_fake_, stack_);
    fiber_ = std::move(fiber_).resume();
    switch_finish(scheduler_fake_, nullptr);
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }
  // Body side: back to whoever resumed it.
  void suspend() {
    switch_start(&fiber_fake_, caller_);
    sink_ = std::move(sink_).resume();
    switch_finish(fiber_fake_, &caller_);
  }
  // Drops the body; an unfinished one is unwound (its destructors run) on its own stack, and one
  // never resumed passes through it too.
  void reset() {
    if (fiber_) {
      // Boost switches to the fiber and back without a word to the sanitizer: it is told the switch
      // there, and the switch back to the stack it learns this one is.
      switch_start(&scheduler_fake_, stack_);
      fiber_ = {};
      Stack here;
      switch_finish(scheduler_fake_, &here);
      switch_start(&scheduler_fake_, here);
      switch_finish(scheduler_fake_, nullptr);
    }
    sink_ = {};
  }
  ~Coroutine() { reset(); }
  Coroutine() = default;
  Coroutine(Coroutine&&) = default;  // only before start(): the body holds `this`
  Coroutine& operator=(Coroutine&&) = default;

 private:
  // The fiber's function: the body, and what it throws kept for resume() (an exception must not
  // leave a fiber). Boost's own unwinding of a dropped fiber passes through.
  template <class F>
  auto entry(F&& body) {
    return [this, body = std::forward<F>(body)](boost::context::fiber&& sink) mutable {
      switch_finish(nullptr, &caller_);
      sink_ = std::move(sink);
      try {
        body();
      } catch (const boost::context::detail::forced_unwind&) {
        throw;
      } catch (...) {
        failure_ = std::current_exception();
      }
      switch_start(nullptr, caller_);  // this fiber's last switch
      return std::move(sink_);
    };
  }

  // A stack's lowest address and size, as the sanitizer takes them.
  struct Stack {
    const void* bottom = nullptr;
    std::size_t size = 0;
  };
  // A stack allocator that notes the stack it gives the fiber.
  template <class Alloc>
  struct Noted {
    Alloc alloc;
    Coroutine* self;
    boost::context::stack_context allocate() {
      boost::context::stack_context s = alloc.allocate();
      self->stack_ = {static_cast<char*>(s.sp) - s.size, s.size};
      return s;
    }
    void deallocate(boost::context::stack_context& s) noexcept { alloc.deallocate(s); }
  };

#ifdef SV_ASAN_FIBERS
  static void switch_start(void** fake, Stack to) { __sanitizer_start_switch_fiber(fake, to.bottom, to.size); }
  static void switch_finish(void* fake, Stack* from) {
    __sanitizer_finish_switch_fiber(fake, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
  }
#else
  static void switch_start(void**, Stack) {}
  static void switch_finish(void*, Stack*) {}
#endif

  boost::context::fiber fiber_;  // the body's own context
  boost::context::fiber sink_;   // the scheduler's, while the body runs
  std::exception_ptr failure_;
  Stack stack_;   // the fiber's
  Stack caller_;  // the scheduler's, learnt as the fiber is entered
  void* scheduler_fake_ = nullptr;  // the sanitizer's fake stacks (use after return), kept across a switch
  void* fiber_fake_ = nullptr;
};

}  // namespace sv
