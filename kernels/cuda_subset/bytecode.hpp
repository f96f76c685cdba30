// A kernel's tree compiled to one flat list of instructions of a stack machine (compile.cpp), which the
// interpreter runs in one loop (interpreter.cpp). Nothing recurses in C++ between a thread's start and
// its memory accesses, so a thread suspended at an access leaves one interpreter frame: the page's
// fibers (Asyncify) unwind and rewind every wasm frame in between at every access.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_subset/ast.hpp"

namespace sv::cuda {

// What each instruction does to the operand stack is written beside it; `e` and `s` are the nodes
// the instruction came from (their types, operators and positions).
enum class Op : std::uint8_t {
  Tick,         // `arg` statements executed (the statements of straight-line code, counted at once)
  LoopTick,     // loop `s` goes round again: one statement, and the statements budget is checked
  Jump,         // to `arg`
  JumpFalse,    // pops a condition; to `arg` when it is false
  JumpTrue,     // pops a condition; to `arg` when it is true
  Pop,          // drops the top
  Halt,         // the kernel's end, or `return`
  PushInt,      // pushes `imm`
  PushFloat,    // pushes the constant `e`
  PushShared,   // pushes a pointer to the shared array `e`
  PushLocalArray,  // pushes a pointer to the thread's own array `e`
  PushBuiltin,  // pushes threadIdx.x, blockDim.x, ... (`e`)
  LoadLocal,    // pushes local `e` (faults when nothing was assigned to it)
  LoadScalar,   // pushes the shared scalar `e` (a read of memory)
  LoadIndex,    // pops an index and a pointer, pushes the cell's value (`e`: Index)
  PlaceScalar,  // pushes the cell of shared scalar `e` as the target of an assignment
  PlacePointer, // pops an index and a pointer, checks the cell and pushes it as a target (`e`: Index)
  Unary,        // the top, replaced by `e` of it
  Binary,       // pops two, pushes `e` of them
  Convert,      // the top, converted to `e`'s type (`e`: Cast)
  AssignLocal,  // the top, assigned (or compound-assigned) to local `e.a`; it stays on the stack
  AssignCell,   // pops a value and a cell, assigns, pushes the value assigned (`e`: Assign)
  IncDecLocal,  // pushes the value of `e` (IncDec of a local)
  IncDecCell,   // pops a cell, pushes the value of `e` (IncDec of memory)
  Shuffle,      // pops the width (when e.d), the lane and the value; pushes the value shuffled
  AtomicAdd,    // pops a value and a cell, pushes the cell's old value
  Declare,      // pops the initial value of local `s` (Decl)
  Undefine,     // local `s` declared without a value
  Barrier,      // __syncthreads() `s`; `loop` is the innermost loop around it (budget faults name it)
  Fence,        // __threadfence() `s`: a fence event (analysis/block_races.hpp)
  StoreSlot,    // pops a function's argument into its parameter's slot `arg`
  PtrAdd,       // pops an offset and a pointer, pushes the pointer moved (`e`: PtrAdd)
  MinMax,       // pops two, pushes the smaller or larger (`e`)
  Abs,          // the top, replaced by its absolute value (`e`)
  Bits,         // the top, replaced by __popc / __ffs / __clz / __brev of it (`e`)
  Vote,         // pops a predicate and a mask (none for __activemask), pushes the warp's vote (`e`)
  Assert,       // pops a condition; faults when it is false (`s`: Assert)
  NoReturn,     // a function `e` ran off its end without returning its value: a fault
  Launch,       // host code: pops e's arguments (grid, block, shared bytes, the kernel's), runs the launch, pushes 0
  Api,          // host code: pops e's arguments, makes the call (ApiKind), pushes its value
  Printf,       // pops e's arguments, adds the formatted line to the run's output, pushes 0
};

struct Instr {
  Op op = Op::Halt;
  std::int32_t arg = 0;  // Tick: statements; Jump*: the target
  std::int64_t imm = 0;  // PushInt
  const Expr* e = nullptr;
  const Stmt* s = nullptr;
  const Stmt* loop = nullptr;
};

struct Program {
  std::vector<Instr> code;
  std::int32_t inlined = 0;  // calls compiled inline
  std::int32_t stack = 0;  // the most values the operand stack holds
};

// The kernel's body as instructions (the kernel must outlive the program: instructions point into it).
Program compile(const Kernel& k);

}  // namespace sv::cuda
