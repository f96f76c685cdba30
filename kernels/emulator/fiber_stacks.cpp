// One mapping for an emulator's fiber stacks, and the thread's spare one.
#include "emulator/fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace sv {

namespace {

std::size_t page_size() {
  static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

// Guard markers (Linux 6.13 and later) fault like PROT_NONE without splitting the mapping at every
// guard page: with mprotect, splitting and then unmapping the pieces was a good part of a recording
// (docs/performance.md, "Fiber stacks"). Older kernels refuse them, and get mprotect.
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

bool install_guard(char* page_start, std::size_t page) {
  static std::atomic<bool> markers{true};  // until the kernel refuses them
  if (markers && ::madvise(page_start, page, MADV_GUARD_INSTALL) == 0) return true;
  markers = false;
  return ::mprotect(page_start, page, PROT_NONE) == 0;
}

// The mapping a finished emulator left on this thread, for the next one.
struct Spare {
  char* base = nullptr;
  std::size_t bytes = 0, slot_bytes = 0;
  ~Spare() {
    if (base) ::munmap(base, bytes);
  }
};
thread_local Spare spare;

}  // namespace

FiberStacks::FiberStacks(std::size_t count, std::size_t size) {
  const std::size_t page = page_size();
  slot_bytes_ = page + (size + page - 1) / page * page;
  const std::size_t bytes = count * slot_bytes_;
  if (bytes == 0) return;
  if (spare.base && spare.slot_bytes == slot_bytes_ && spare.bytes >= bytes) {
    base_ = std::exchange(spare.base, nullptr);
    bytes_ = std::exchange(spare.bytes, 0);
    return;
  }
  bytes_ = bytes;
  void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<char*>(p);
  for (std::size_t i = 0; i < count; ++i)
    if (!install_guard(base_ + i * slot_bytes_, page)) {
      const int error = errno;
      ::munmap(base_, bytes_);
      throw std::runtime_error(std::string("cannot protect a fiber stack's guard page: ") + std::strerror(error));
    }
}

FiberStacks::~FiberStacks() {
  if (!base_) return;
  if (spare.bytes > bytes_) {
    ::munmap(base_, bytes_);
    return;
  }
  if (spare.base) ::munmap(spare.base, spare.bytes);
  spare.base = base_;
  spare.bytes = bytes_;
  spare.slot_bytes = slot_bytes_;
}

FiberStacks::Slot FiberStacks::slot(std::size_t i) const {
  Slot s;
  s.stack.size = slot_bytes_ - page_size();
  s.stack.sp = base_ + (i + 1) * slot_bytes_;  // the top: stacks grow down towards the guard page
  return s;
}

}  // namespace sv
