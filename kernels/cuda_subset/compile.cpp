// Compiles a kernel's tree to the stack machine of bytecode.hpp, in the order the tree's own
// evaluation takes: a target's pointer and index before the value assigned, left before right,
// && || ?: by jumps, loops as a condition, a body and a jump back. A call of a __device__ function is
// compiled inline: its arguments stored in its parameters' slots, its body, its returns as jumps to
// the call's end with the value on the stack.
#include "cuda_subset/bytecode.hpp"

#include <algorithm>
#include <cstddef>

namespace sv::cuda {

namespace {

class Compiler {
 public:
  explicit Compiler(const Kernel& k) : k_(k) {}

  Program run() {
    statement(*k_.body);
    emit(Op::Halt);
    return std::move(p_);
  }

 private:
  struct Loop {
    const Stmt* s;
    std::vector<std::size_t> breaks, continues;  // jumps to patch to the loop's end and its next round
  };
  struct Call {
    int height;                        // the operand stack's height where the call began
    std::vector<std::size_t> returns;  // jumps to patch to the call's end
  };
  // Inline calls nest at most this deep (a chain of functions, each calling the next).
  static constexpr std::size_t kMaxInlineDepth = 32;
  // Instructions a kernel may become once its calls are inlined.
  static constexpr std::size_t kMaxInstructions = 1'000'000;

  // What each instruction does to the operand stack's height.
  static int effect(Op op, const Expr* e) {
    switch (op) {
      case Op::PushInt:
      case Op::PushFloat:
      case Op::PushShared:
      case Op::PushLocalArray:
      case Op::PushBuiltin:
      case Op::LoadLocal:
      case Op::LoadScalar:
      case Op::PlaceScalar:
      case Op::IncDecLocal: return 1;
      case Op::JumpFalse:
      case Op::JumpTrue:
      case Op::Pop:
      case Op::LoadIndex:
      case Op::PlacePointer:
      case Op::Binary:
      case Op::AssignCell:
      case Op::Declare:
      case Op::StoreSlot:
      case Op::PtrAdd:
      case Op::MinMax:
      case Op::Assert: return -1;
      case Op::NoReturn: return 1;
      case Op::Shuffle: return e->d ? -2 : -1;
      case Op::Vote: return e->a ? -1 : 1;  // pops mask and predicate (__activemask: none), pushes the vote
      case Op::AtomicAdd: return e->c ? -2 : -1;  // atomicCAS pops its compare value too
      case Op::Launch:
      case Op::Api:
      case Op::Printf: return 1 - static_cast<int>(e->args.size());  // pops its arguments, pushes its value
      default: return 0;
    }
  }

  std::size_t emit(Op op, const Expr* e = nullptr, const Stmt* s = nullptr) {
    Instr in;
    in.op = op;
    in.e = e;
    in.s = s;
    if (p_.code.size() >= kMaxInstructions)
      throw KernelError("limit", file_of(k_, e ? e->pos : s ? s->pos : SrcPos{}), e ? e->pos : s ? s->pos : SrcPos{},
                        "the kernel is more than " + std::to_string(kMaxInstructions) + " instructions with its functions' calls inlined");
    p_.code.push_back(in);
    height_ += effect(op, e);
    p_.stack = std::max(p_.stack, height_);
    return p_.code.size() - 1;
  }

  // The next instruction's position as a jump target: Ticks are not merged across it.
  std::int32_t here() {
    target_ = p_.code.size();
    return static_cast<std::int32_t>(target_);
  }
  void land(std::size_t jump) { p_.code[jump].arg = here(); }
  void jump(Op op, std::int32_t to) { p_.code[emit(op)].arg = to; }

  // Every statement executed counts one (the statements budget); adjacent counts are one instruction.
  void tick() {
    if (!p_.code.empty() && p_.code.size() > target_ && p_.code.back().op == Op::Tick) {
      ++p_.code.back().arg;
      return;
    }
    p_.code[emit(Op::Tick)].arg = 1;
  }

  void place(const Expr& e) {  // a cell of memory as an assignment's target
    if (e.kind == EK::SharedScalar) {
      emit(Op::PlaceScalar, &e);
      return;
    }
    operands(e, Op::PlacePointer);
  }

  // e's operands a (and b), then `op`.
  void operands(const Expr& e, Op op) {
    expression(*e.a);
    if (e.b) expression(*e.b);
    emit(op, &e);
  }

  // a && b, a || b: 0 or 1.
  void logical(const Expr& e, bool is_and) {
    const Op skip = is_and ? Op::JumpFalse : Op::JumpTrue;
    expression(*e.a);
    const std::size_t first = emit(skip);
    expression(*e.b);
    const std::size_t second = emit(skip);
    p_.code[emit(Op::PushInt)].imm = is_and ? 1 : 0;
    const std::size_t done = emit(Op::Jump);
    land(first);
    p_.code[second].arg = p_.code[first].arg;
    --height_;  // the other branch's value
    p_.code[emit(Op::PushInt)].imm = is_and ? 0 : 1;
    land(done);
  }

  void expression(const Expr& e) {
    switch (e.kind) {
      case EK::IntLit: p_.code[emit(Op::PushInt)].imm = e.ival; return;
      case EK::FloatLit: emit(Op::PushFloat, &e); return;
      case EK::Local: emit(Op::LoadLocal, &e); return;
      case EK::Shared: emit(Op::PushShared, &e); return;
      case EK::SharedScalar: emit(Op::LoadScalar, &e); return;
      case EK::Builtin: emit(Op::PushBuiltin, &e); return;
      case EK::Index: operands(e, Op::LoadIndex); return;
      case EK::Unary: operands(e, Op::Unary); return;
      case EK::Binary: operands(e, Op::Binary); return;
      case EK::And:
      case EK::Or: logical(e, e.kind == EK::And); return;
      case EK::Cond: {
        expression(*e.a);
        const std::size_t otherwise = emit(Op::JumpFalse);
        expression(*e.b);
        const std::size_t done = emit(Op::Jump);
        land(otherwise);
        --height_;  // the other branch's value
        expression(*e.c);
        land(done);
        return;
      }
      case EK::Cast: operands(e, Op::Convert); return;
      case EK::Assign:
        if (e.a->kind == EK::Local) {
          expression(*e.b);
          emit(Op::AssignLocal, &e);
          return;
        }
        place(*e.a);
        expression(*e.b);
        emit(Op::AssignCell, &e);
        return;
      case EK::IncDec:
        if (e.a->kind == EK::Local) {
          emit(Op::IncDecLocal, &e);
          return;
        }
        place(*e.a);
        emit(Op::IncDecCell, &e);
        return;
      case EK::Shfl:
        expression(*e.a);  // the mask: every lane of the warp takes part
        emit(Op::Pop);
        expression(*e.b);
        expression(*e.c);
        if (e.d) expression(*e.d);
        emit(Op::Shuffle, &e);
        return;
      case EK::AtomicAdd:
        place(*e.a);
        if (e.c) expression(*e.c);  // atomicCAS's compare value
        expression(*e.b);
        emit(Op::AtomicAdd, &e);
        return;
      case EK::PtrAdd: operands(e, Op::PtrAdd); return;
      case EK::MinMax: operands(e, Op::MinMax); return;
      case EK::Abs: operands(e, Op::Abs); return;
      case EK::Bits: operands(e, Op::Bits); return;
      case EK::LocalArray: emit(Op::PushLocalArray, &e); return;
      case EK::Vote:
        if (e.a) operands(e, Op::Vote);
        else emit(Op::Vote, &e);
        return;
      case EK::Comma:
        expression(*e.a);
        emit(Op::Pop);
        expression(*e.b);
        return;
      case EK::Call: call(e); return;
      case EK::Printf:  // its arguments in order (their reads are the kernel's), then the line
      case EK::Launch:
      case EK::Api:  // host code: the arguments in order, then the call
        for (const ExprP& a : e.args) expression(*a);
        emit(e.kind == EK::Launch ? Op::Launch : e.kind == EK::Api ? Op::Api : Op::Printf, &e);
        return;
    }
  }

  // f(args) inline: the arguments (or the defaults) evaluated left to right, stored into the
  // parameters' slots last to first, then the body; every return jumps to the end with its value.
  void call(const Expr& e) {
    const Function& f = k_.functions[static_cast<std::size_t>(e.ival)];
    if (calls_.size() >= kMaxInlineDepth)
      throw KernelError("limit", file_of(k_, e.pos), e.pos, "calls nested more than " + std::to_string(kMaxInlineDepth) + " functions deep");
    for (std::size_t p = 0; p < f.params.size(); ++p) expression(p < e.args.size() ? *e.args[p] : *f.defaults[p]);
    for (std::size_t p = f.params.size(); p-- > 0;) p_.code[emit(Op::StoreSlot)].arg = static_cast<std::int32_t>(f.params[p].slot);
    ++p_.inlined;
    calls_.push_back(Call{height_, {}});
    std::vector<Loop> outer;
    outer.swap(loops_);  // the callee's break and continue are its own
    statement(*f.body);
    if (f.result.base == Base::Void && !f.result.pointer) p_.code[emit(Op::PushInt)].imm = 0;  // a void call's value
    else emit(Op::NoReturn, &e);
    const std::int32_t end = here();
    for (const std::size_t j : calls_.back().returns) p_.code[j].arg = end;
    height_ = calls_.back().height + 1;
    calls_.pop_back();
    loops_.swap(outer);
  }

  // A loop's body, then its continue point (`next`: what runs there before the jump to `top`).
  template <class Next>
  void loop_body(const Stmt& s, Next next) {
    loops_.push_back(Loop{&s, {}, {}});
    statement(*s.then);
    const std::int32_t next_round = here();
    for (const std::size_t j : loops_.back().continues) p_.code[j].arg = next_round;
    next();
  }
  void loop_end() {
    const std::int32_t end = here();
    for (const std::size_t j : loops_.back().breaks) p_.code[j].arg = end;
    loops_.pop_back();
  }

  // The innermost loop around here, past any switch (continue and the barriers' budgets name it).
  Loop* innermost_loop() {
    for (auto l = loops_.rbegin(); l != loops_.rend(); ++l)
      if (l->s->kind != SK::Switch) return &*l;
    return nullptr;
  }

  // switch: its value into a local, one test a case label (each a jump to the label), then the body
  // in order, so that a case without break falls through to the next; break leaves the switch.
  void switch_statement(const Stmt& s) {
    statement(*s.init);
    std::vector<std::pair<const Stmt*, std::size_t>> labels;
    for (const StmtP& c : s.body)
      if (c->kind == SK::Case && c->cond) {
        expression(*c->cond);
        labels.emplace_back(c.get(), emit(Op::JumpTrue));
      }
    const std::size_t no_case = emit(Op::Jump);
    bool defaulted = false;
    loops_.push_back(Loop{&s, {}, {}});
    for (const StmtP& c : s.body) {
      if (c->kind == SK::Case) {
        if (!c->cond) {
          land(no_case);
          defaulted = true;
        }
        for (const auto& [label, jump] : labels)
          if (label == c.get()) land(jump);
      }
      statement(*c);
    }
    if (!defaulted) land(no_case);
    loop_end();
  }

  void statement(const Stmt& s) {
    tick();
    switch (s.kind) {
      case SK::Block:
        for (const StmtP& c : s.body) statement(*c);
        return;
      case SK::Expr:
        expression(*s.e);
        emit(Op::Pop);
        return;
      case SK::Decl:
        if (s.e) {
          expression(*s.e);
          emit(Op::Declare, nullptr, &s);
        } else {
          emit(Op::Undefine, nullptr, &s);
        }
        return;
      case SK::If: {
        expression(*s.cond);
        const std::size_t otherwise = emit(Op::JumpFalse);
        statement(*s.then);
        if (!s.otherwise) {
          land(otherwise);
          return;
        }
        const std::size_t done = emit(Op::Jump);
        land(otherwise);
        statement(*s.otherwise);
        land(done);
        return;
      }
      case SK::For: {
        loops_.push_back(Loop{&s, {}, {}});  // the init's barriers name this loop too
        if (s.init) statement(*s.init);
        loops_.pop_back();
        const std::int32_t top = here();
        std::size_t exit = 0;
        if (s.cond) {
          expression(*s.cond);
          exit = emit(Op::JumpFalse);
        }
        loop_body(s, [&] {
          if (s.step) {
            expression(*s.step);
            emit(Op::Pop);
          }
          emit(Op::LoopTick, nullptr, &s);
          jump(Op::Jump, top);
        });
        if (s.cond) loops_.back().breaks.push_back(exit);
        loop_end();
        return;
      }
      case SK::While: {
        const std::int32_t top = here();
        expression(*s.cond);
        const std::size_t exit = emit(Op::JumpFalse);
        loop_body(s, [&] {
          emit(Op::LoopTick, nullptr, &s);
          jump(Op::Jump, top);
        });
        loops_.back().breaks.push_back(exit);
        loop_end();
        return;
      }
      case SK::DoWhile: {
        const std::int32_t top = here();
        loop_body(s, [&] {
          emit(Op::LoopTick, nullptr, &s);
          expression(*s.cond);
          jump(Op::JumpTrue, top);
        });
        loop_end();
        return;
      }
      case SK::Break: loops_.back().breaks.push_back(emit(Op::Jump)); return;  // a loop's or a switch's
      case SK::Continue: innermost_loop()->continues.push_back(emit(Op::Jump)); return;
      case SK::Switch: switch_statement(s); return;
      case SK::Case: return;  // a label: switch_statement lands its jump here
      case SK::Return:
        if (calls_.empty()) {
          emit(Op::Halt);
          return;
        }
        if (s.e) expression(*s.e);
        else p_.code[emit(Op::PushInt)].imm = 0;
        calls_.back().returns.push_back(emit(Op::Jump));
        height_ = calls_.back().height;  // the value leaves with the jump
        return;
      case SK::Assert:
        expression(*s.cond);
        emit(Op::Assert, nullptr, &s);
        return;
      case SK::Sync: {
        const Loop* loop = innermost_loop();
        p_.code[emit(Op::Barrier, nullptr, &s)].loop = loop ? loop->s : nullptr;
        return;
      }
      case SK::Fence: emit(Op::Fence, nullptr, &s); return;  // recorded: other blocks see the writes before it first
      case SK::SyncWarp:
      case SK::Empty: return;  // the emulator runs a warp's lanes in lockstep and one block's memory is coherent
    }
  }

  const Kernel& k_;
  Program p_;
  int height_ = 0;
  std::vector<Call> calls_;
  std::size_t target_ = 0;  // the last position a jump lands on
  std::vector<Loop> loops_;
};

}  // namespace

Program compile(const Kernel& k) { return Compiler(k).run(); }

}  // namespace sv::cuda
