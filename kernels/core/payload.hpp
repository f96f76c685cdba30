// A type-erased scan value: the bytes of an int32, int64, float, double or Interval. The trace stores
// values this way; its meta says which type they are.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/hd.hpp"
#include "core/interval.hpp"

namespace sv {

struct Payload {
  alignas(8) unsigned char bytes[24] = {};

  template <class T>
  SV_HD static Payload of(const T& v) {
    static_assert(sizeof(T) <= sizeof(bytes) && std::is_trivially_copyable_v<T>);
    Payload p;
    std::memcpy(p.bytes, &v, sizeof(T));
    return p;
  }
  template <class T>
  SV_HD T as() const {
    static_assert(sizeof(T) <= sizeof(bytes) && std::is_trivially_copyable_v<T>);
    T v;
    std::memcpy(&v, bytes, sizeof(T));
    return v;
  }
  friend bool operator==(const Payload& a, const Payload& b) { return std::memcmp(a.bytes, b.bytes, sizeof a.bytes) == 0; }
  friend bool operator!=(const Payload& a, const Payload& b) { return !(a == b); }
};

}  // namespace sv
