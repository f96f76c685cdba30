// Coroutine (emulator/coroutine.hpp) on Boost.Context fibers with guarded stacks.
#pragma once

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cstddef>
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
                                   [this, body = std::forward<F>(body)](boost::context::fiber&& sink) mutable {
                                     sink_ = std::move(sink);
                                     body();
                                     return std::move(sink_);
                                   });
  }
  // The same on slot `slot` of a block's stacks (CoroutineStacks), which must outlive the body.
  template <class F>
  void start(FiberStacks::Slot slot, F&& body) {
    reset();
    fiber_ = boost::context::fiber(std::allocator_arg, slot,
                                   [this, body = std::forward<F>(body)](boost::context::fiber&& sink) mutable {
                                     sink_ = std::move(sink);
                                     body();
                                     return std::move(sink_);
                                   });
  }
  // Scheduler side: runs the body until it suspends or returns.
  void resume() { fiber_ = std::move(fiber_).resume(); }
  // Body side: back to whoever resumed it.
  void suspend() { sink_ = std::move(sink_).resume(); }
  // Drops the body; an unfinished one is unwound (its destructors run).
  void reset() {
    fiber_ = {};
    sink_ = {};
  }

 private:
  boost::context::fiber fiber_;  // the body's own context
  boost::context::fiber sink_;   // the scheduler's, while the body runs
};

// Runs a scheduler of coroutines (run_scheduler in emulator/coroutine.hpp): here, where it is.
template <class F>
void run_scheduler(F&& scheduler) {
  scheduler();
}

}  // namespace sv
