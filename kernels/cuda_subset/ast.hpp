// The syntax tree of a kernel in the CUDA subset, with names already resolved: locals are slots of
// the thread's frame, shared variables are buffers, and every node keeps its source position.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_subset/diagnostic.hpp"

namespace sv::cuda {

enum class Base : std::uint8_t { Void, Bool, Int, UInt, Float, Double };

struct Type {
  Base base = Base::Int;
  bool pointer = false;
  friend bool operator==(const Type&, const Type&) = default;
};
std::string type_name(Type t);
inline bool is_integer(Base b) { return b == Base::Bool || b == Base::Int || b == Base::UInt; }
inline bool is_floating(Base b) { return b == Base::Float || b == Base::Double; }

enum class Builtin : std::uint8_t { ThreadIdx, BlockIdx, BlockDim, GridDim, WarpSize, LaneId };

enum class EK : std::uint8_t {
  IntLit, FloatLit, Local, Shared, SharedScalar, Builtin, Index, Unary, Binary, And, Or, Cond, Assign, IncDec, Cast,
  Shfl, AtomicAdd,
};

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
};
using ExprP = std::unique_ptr<Expr>;

enum class SK : std::uint8_t { Block, Expr, Decl, If, For, While, DoWhile, Break, Continue, Return, Sync, SyncWarp, Fence, Empty };

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

struct Kernel {
  std::string file;
  std::string name;
  SrcPos pos;
  std::vector<Param> params;
  std::vector<SharedVar> shared;
  std::int64_t slots = 0;  // locals in a thread's frame
  Type element{Base::Float, false};  // the scan's element type: what the pointer parameters point to
  StmtP body;
  bool uses_warp_intrinsics = false;
  std::vector<std::string> local_names;  // by slot, for messages
};

}  // namespace sv::cuda
