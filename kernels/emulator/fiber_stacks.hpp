// The stacks of an emulator's fibers, one mapping for a whole block: a mapping for each fiber cost
// an mmap, an mprotect and an munmap each, nearly a third of recording a block of 1024 threads.
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>

namespace sv {

class FiberStacks {
 public:
  // A Boost.Context stack allocator for one fiber: hands out its slot of the mapping, frees nothing.
  struct Slot {
    boost::context::stack_context stack;
    boost::context::stack_context allocate() const { return stack; }
    void deallocate(boost::context::stack_context&) const noexcept {}
  };

  // `count` stacks of `size` bytes, each above a guard page (an overflow faults instead of running
  // into its neighbour). The mapping of the last emulator that ran on this thread is reused when it
  // is large enough: the stack pages it touched are not faulted in again.
  FiberStacks(std::size_t count, std::size_t size);
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;

  // Every fiber on these stacks must be gone before the FiberStacks is.
  Slot slot(std::size_t i) const;

 private:
  char* base_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t slot_bytes_ = 0;  // a guard page and the stack
};

}  // namespace sv
