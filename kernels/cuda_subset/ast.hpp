// The syntax tree of a kernel of a .cu file, with names already resolved: locals are slots of the
// thread's frame, shared variables are buffers, the file's __device__ functions are called by index,
// and every node keeps its source position.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_subset/diagnostic.hpp"

namespace sv::cuda {

// Int and UInt are 32 bits (int, unsigned, int32_t, and the narrower integers, which are read as int),
// Long and ULong 64 (long, long long, int64_t, size_t, uint64_t).
enum class Base : std::uint8_t { Void, Bool, Int, UInt, Float, Double, Long, ULong };

struct Type {
  Base base = Base::Int;
  bool pointer = false;
  friend bool operator==(const Type&, const Type&) = default;
};
std::string type_name(Type t);
inline bool is_integer(Base b) { return b == Base::Bool || b == Base::Int || b == Base::UInt || b == Base::Long || b == Base::ULong; }
inline bool is_wide(Base b) { return b == Base::Long || b == Base::ULong; }
inline bool is_unsigned(Base b) { return b == Base::UInt || b == Base::ULong; }

// An integer of base `b` as the front end and the interpreter hold it: 32-bit values sign- or
// zero-extended, 64-bit ones as their bits (an unsigned long long above 2^63 is negative here).
inline std::int64_t wrap_integer(Base b, std::int64_t v) {
  if (b == Base::UInt) return static_cast<std::int64_t>(static_cast<std::uint32_t>(v));
  if (b == Base::Bool) return v != 0;
  if (b == Base::Long || b == Base::ULong) return v;
  return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
}

// Bytes a value of type `t` takes on a GPU (sizeof).
inline std::int64_t size_of(Type t) {
  if (t.pointer) return 8;
  return t.base == Base::Double || is_wide(t.base) ? 8 : t.base == Base::Bool ? 1 : 4;
}
inline bool is_floating(Base b) { return b == Base::Float || b == Base::Double; }

enum class Builtin : std::uint8_t { ThreadIdx, BlockIdx, BlockDim, GridDim, WarpSize, LaneId };

enum class EK : std::uint8_t {
  IntLit, FloatLit, Local, Shared, SharedScalar, Builtin, Index, Unary, Binary, And, Or, Cond, Assign, IncDec, Cast,
  Shfl, AtomicAdd,
  Call,     // a __device__ function of the file (ival: its index), arguments in `args`
  PtrAdd,   // pointer a moved by integer b cells (p + i, &a[i]; op 1: p - i)
  Comma,    // a, then b: the value of b
  MinMax,   // min / max / fminf / fmaxf / fmin / fmax of a and b (op 0 min, 1 max)
  Abs,      // abs / fabsf / fabs of a
  Printf,   // printf(Kernel::formats[ival], args...): a line of the run's output; int 0
  Vote,     // a warp vote (op: VoteKind) of mask a and predicate b (neither for __activemask)
  LocalArray,  // a thread's own array (Kernel::local_arrays[ival]): a pointer to its first cell
  Bits,     // __popc / __ffs / __clz / __brev of a (op: BitsKind; the 64-bit forms by a's type)
  // Host code (a host function that launches the kernels, docs/kernel-subset.md):
  Launch,   // KERNEL<<<args[0], args[1], args[2]>>>(args[3...]): ival the kernel's index in Kernel::launched
  Api,      // a CUDA runtime or C library call (op: ApiKind), its arguments in `args`; ival a local's slot
};

// The host calls run (EK::Api). Malloc: cudaMalloc(&local, bytes) into slot ival (`a` that local); Alloc: malloc(bytes)
// or new T[count] (op NewArray), a pointer of the expression's type; Copy: cudaMemcpy(dst, src, bytes);
// Set: cudaMemset(p, byte, bytes); Exit: exit(code); Nop: the rest (cudaFree, cudaDeviceSynchronize,
// cudaGetLastError, events), its arguments evaluated, 0 (or a null pointer) its value, slot ival (an
// &local it was given, e.g. the time of cudaEventElapsedTime) set to 0.
// Call: a host function that calls itself, directly or not (Kernel::called[ival]), run as an entry of
// its own with these arguments (a call inlined could not hold two of its frames at once).
enum class ApiKind : std::uint8_t { Malloc, Alloc, NewArray, Copy, Set, Exit, Nop, Call };

// The atomics (EK::AtomicAdd's op): atomicAdd, atomicSub, atomicExch, atomicMax, atomicMin, atomicAnd,
// atomicOr, atomicXor, and atomicCAS (its compare value in `c`).
enum class AtomicKind : std::uint8_t { Add, Sub, Exch, Max, Min, And, Or, Xor, CAS };

// The warp votes (EK::Vote's op): __ballot_sync, __any_sync, __all_sync, __activemask.
enum class VoteKind : std::uint8_t { Ballot, Any, All, Active };
// The bit intrinsics (EK::Bits's op): bits set, the first set bit counted from 1 (0 for none), the
// leading zeros, the bits reversed; __popcll, __ffsll, __clzll and __brevll on 64-bit values.
enum class BitsKind : std::uint8_t { Popc, Ffs, Clz, Brev };

// Binary and compound-assignment operators (Assign with op None is plain `=`).
enum class BinOp : std::uint8_t { None, Add, Sub, Mul, Div, Mod, Shl, Shr, BitAnd, BitOr, BitXor, Lt, Gt, Le, Ge, Eq, Ne };
enum class UnOp : std::uint8_t { Neg, Plus, Not, BitNot };
enum class ShflKind : std::uint8_t { Up, Down, Idx, Xor };

struct Expr {
  EK kind = EK::IntLit;
  Type type;          // the C type of the value
  SrcPos pos;
  std::int64_t ival = 0;   // IntLit value; Local slot; Shared: the shared variable; Builtin: which
  double fval = 0;         // FloatLit
  std::uint8_t op = 0;     // BinOp, UnOp, ShflKind; IncDec: 0 ++, 1 --
  bool prefix = false;     // IncDec
  std::uint16_t depth = 1; // of the subtree: the compiler recurses this deep
  std::unique_ptr<Expr> a, b, c, d;
  std::vector<std::unique_ptr<Expr>> args;  // Call, Printf
};
using ExprP = std::unique_ptr<Expr>;

// Return: `e` the value a function returns (none in a kernel or a void function). Assert: `cond`.
// Switch: `init` stores the value into a local, `body` holds the statements with their Case labels;
// a Case's `cond` tests that local against its constant (none: default).
enum class SK : std::uint8_t { Block, Expr, Decl, If, For, While, DoWhile, Break, Continue, Return, Sync, SyncWarp, Fence, Empty, Assert, Switch, Case };

struct Stmt {
  SK kind = SK::Empty;
  SrcPos pos;
  std::int64_t slot = -1;  // Decl: the local's slot
  Type type;               // Decl: the local's type
  ExprP e, cond, step;     // Expr / Decl init / If, For, While conditions / For step
  std::unique_ptr<Stmt> init, then, otherwise;  // For init; If branches; loop body in `then`
  std::vector<std::unique_ptr<Stmt>> body;      // Block
};
using StmtP = std::unique_ptr<Stmt>;

struct SharedVar {
  std::string name;
  Type elem;                // element type (never a pointer)
  std::int64_t length = 1;  // cells; a scalar has one
  bool scalar = false;
  bool dynamic = false;     // extern __shared__ T name[]: sized by the launch; every such array is one allocation
  SrcPos pos;
  bool device = false;      // a __device__ or __constant__ variable: global memory, set to `init` at every run's start
  double init = 0;
};

// A thread's own array (`float v[4];` in a body): `length` slots of the thread's frame from `first`,
// read and written through pointers like memory, never shared with another thread.
struct LocalArray {
  std::string name;
  std::int64_t first = 0;
  std::int64_t length = 0;
  SrcPos pos;
};

struct Param {
  std::string name;
  Type type;
  SrcPos pos;
  std::int64_t slot = 0;
  bool written = false;  // a pointer the kernel stores through (an output)
  bool read = false;
};

// A __device__ (or __host__ __device__) function of the file. Calls are compiled inline: its
// parameters and locals have slots of their own in every thread's frame, which is why recursion is
// refused (a function is never running twice in one thread).
struct Function {
  std::string name;
  SrcPos pos;
  Type result;              // Void for a void function
  std::vector<Param> params;
  std::vector<ExprP> defaults;  // per parameter: its default argument, or null
  StmtP body;               // null for a declaration that was never defined
  std::vector<std::int64_t> calls;  // the functions its body calls (recursion is refused)
};

struct Kernel {
  std::string file;
  std::vector<std::string> files;  // by SrcPos::file: the file and the ones it #includes
  std::string name;
  SrcPos pos;
  std::vector<Param> params;
  std::vector<SharedVar> shared;
  std::int64_t slots = 0;  // locals in a thread's frame (the file's: every function's and kernel's)
  Type element{Base::Float, false};  // the scan's element type: what the pointer parameters point to
  StmtP body;
  bool uses_warp_intrinsics = false;
  std::vector<std::string> local_names;  // by slot, for messages
  std::vector<LocalArray> local_arrays;  // by EK::LocalArray's ival
  std::vector<Function> functions;       // the file's __device__ functions, by the index a Call names
  std::vector<std::string> kernels;      // the names of every __global__ kernel of the file, in order
  // A host function as the entry: its body allocates, copies and launches the file's kernels (by
  // name, EK::Launch), which are parsed as entries of their own when they run.
  bool host = false;
  std::vector<std::string> launched;
  std::vector<std::string> called;  // host functions called by recursion (ApiKind::Call)
  std::vector<std::string> formats;  // printf's format strings, by EK::Printf's ival
};

// The name of the file a position is in.
inline const std::string& file_of(const Kernel& k, SrcPos at) {
  return at.file < k.files.size() ? k.files[at.file] : k.file;
}

}  // namespace sv::cuda
