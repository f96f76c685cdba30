// Coroutine (emulator/coroutine.hpp) on Boost.Context fibers with guarded stacks.
#pragma once

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cstddef>
#include <exception>
#include <memory>
#include <utility>

#include "emulator/fiber_stacks.hpp"

namespace sv {

using CoroutineStacks = FiberStacks;

class Coroutine {
 public:
  // Starts `body` suspended, on a stack of `stack_bytes`; any earlier body is unwound first.
  template <class F>
  void start(std::size_t stack_bytes, F&& body) {
    reset();
    fiber_ = boost::context::fiber(std::allocator_arg, boost::context::protected_fixedsize_stack(stack_bytes),
                                   entry(std::forward<F>(body)));
  }
  // The same on slot `slot` of a block's stacks (CoroutineStacks), which must outlive the body.
  template <class F>
  void start(FiberStacks::Slot slot, F&& body) {
    reset();
    fiber_ = boost::context::fiber(std::allocator_arg, slot, entry(std::forward<F>(body)));
  }
  // Scheduler side: runs the body until it suspends or returns; what the body throws is thrown here.
  void resume() {
    fiber_ = std::move(fiber_).resume();
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }
  // Body side: back to whoever resumed it.
  void suspend() { sink_ = std::move(sink_).resume(); }
  // Drops the body; an unfinished one is unwound (its destructors run).
  void reset() {
    fiber_ = {};
    sink_ = {};
  }

 private:
  // The fiber's function: the body, and what it throws kept for resume() (an exception must not
  // leave a fiber). Boost's own unwinding of a dropped fiber passes through.
  template <class F>
  auto entry(F&& body) {
    return [this, body = std::forward<F>(body)](boost::context::fiber&& sink) mutable {
      sink_ = std::move(sink);
      try {
        body();
      } catch (const boost::context::detail::forced_unwind&) {
        throw;
      } catch (...) {
        failure_ = std::current_exception();
      }
      return std::move(sink_);
    };
  }

  boost::context::fiber fiber_;  // the body's own context
  boost::context::fiber sink_;   // the scheduler's, while the body runs
  std::exception_ptr failure_;
};

}  // namespace sv
