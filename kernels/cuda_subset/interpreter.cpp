// The interpreter of the CUDA subset: the kernel compiled once (bytecode.hpp), then run by every thread
// on its emulator fiber in one loop. Names were resolved by the parser, so a local is a slot of the
// thread's frame and memory is an emulator buffer.
#include "cuda_subset/interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/ops.hpp"
#include "cuda_subset/bytecode.hpp"
#include "cuda_subset/interpreter_values.hpp"
#include "cuda_subset/printf_format.hpp"

namespace sv::cuda {

namespace {

// What the threads of one block share while they run.
struct Block {
  Block(BlockEmulator& emu_, const Kernel& k_, const Binding& bind_, const Budget& budget_, const Trace& trace_)
      : emu(emu_), k(k_), bind(bind_), budget(budget_), trace(trace_), program(compile(k_)) {}
  BlockEmulator& emu;
  const Kernel& k;
  const Binding& bind;
  const Budget& budget;
  const Trace& trace;
  const Program program;
  // Each thread's frame (its locals' slots, then its operand stack) and which slots hold a value, a
  // thread after another: the threads own no memory, so nothing is left to free when one suspends.
  std::vector<Value> values;
  std::vector<std::uint8_t> defined;
  bool symbolic = false;
  std::int64_t statements = 0;
  std::vector<std::uint32_t> barrier_line;  // the line of the k-th barrier, as the first thread met it
  std::vector<std::int32_t> passed;         // barriers each thread passed
  // per emulator buffer
  std::vector<std::string> names;
  std::vector<std::int64_t> lengths;
  std::vector<std::int32_t> shared_buffer;  // per shared variable
  std::int32_t globals = 0;                 // buffers below this are global memory
  std::vector<UninitializedRead> uninitialized;  // reads of cells never written, first per line
  // Cells a value computed from such a read was stored to (left undefined), and that read's line: a
  // later read of the cell carries the first read's line, where the bug is.
  std::unordered_map<std::uint64_t, std::uint32_t> poisoned;
  static std::uint64_t cell_key(int buf, std::int64_t index) { return static_cast<std::uint64_t>(buf) << 40 ^ static_cast<std::uint64_t>(index); }

  [[noreturn]] void fault(const char* kind, SrcPos at, const std::string& what) const { throw_fault(k.file, kind, at, what); }
};

class Thread {
 public:
  Thread(Block& blk, EmuExec& x)
      : b_(blk), k_(blk.k), x_(x),
        frame_(blk.values.data() + static_cast<std::size_t>(x.thread()) * static_cast<std::size_t>(blk.k.slots + blk.program.stack)),
        stack_(frame_ + blk.k.slots), defined_(blk.defined.data() + static_cast<std::size_t>(x.thread()) * static_cast<std::size_t>(blk.k.slots)) {}

  void run() {
    for (std::size_t p = 0; p < k_.params.size(); ++p) {
      Value& v = frame_[static_cast<std::size_t>(k_.params[p].slot)];
      if (k_.params[p].type.pointer) {
        v.buf = b_.bind.param_buffer[p];
        v.i = p < b_.bind.param_offset.size() ? b_.bind.param_offset[p] : 0;
      }
      else v.i = wrap(k_.params[p].type.base, b_.bind.param_value[p]);
      if (is_floating(k_.params[p].type.base) && !k_.params[p].type.pointer)
        v.f = p < b_.bind.param_number.size() ? b_.bind.param_number[p] : static_cast<double>(b_.bind.param_value[p]);
      defined_[static_cast<std::size_t>(k_.params[p].slot)] = 1;
    }
    bool dynamic = false;  // every extern __shared__ array is the one allocation the launch sized
    for (std::size_t s = 0; s < k_.shared.size(); ++s) {
      const SharedVar& v = k_.shared[s];
      if (v.device || (v.dynamic && std::exchange(dynamic, true))) continue;
      if (declare(v.name, v.dynamic ? b_.bind.dynamic_cells : v.length) != b_.shared_buffer[s])
        b_.fault("runtime", v.pos, "the emulator placed __shared__ '" + v.name + "' unexpectedly");
    }
    x_.step(Phase::Interval, 0, k_.pos.line);
    execute();
  }

 private:
  int declare(const std::string& name, std::int64_t length) {
    int buffer = -1;
    visit_value_type(b_.bind.run_type, [&](auto t) { buffer = x_.shared<decltype(t)>(name.c_str(), length).buffer(); });
    return buffer;
  }

  bool sym(Base base) const { return b_.symbolic && is_floating(base); }

  // Statements count everywhere; only a loop's next iteration checks the budget, so the fault names
  // the loop (straight-line code between two checks is bounded by the kernel's size).
  void tick() { ++b_.statements; }
  void loop_tick(SrcPos loop) {
    if (++b_.statements > b_.budget.statements)
      b_.fault("budget", loop, "the kernel ran more than " + std::to_string(b_.budget.statements) +
                                   " statements (all threads together): does this loop end?");
  }

  // ---- memory ----
  // Memory is a buffer (>= 0) or a thread's own array (local_buffer: below -1, as null is -1).
  static constexpr std::int32_t local_buffer(std::int64_t array) { return static_cast<std::int32_t>(-2 - array); }
  const LocalArray* local_array(int buf) const {
    return buf < -1 ? &k_.local_arrays[static_cast<std::size_t>(-2 - buf)] : nullptr;
  }
  std::string buffer_name(int buf) const {
    if (const LocalArray* a = local_array(buf)) return "its own array " + a->name;
    return b_.names[static_cast<std::size_t>(buf)];
  }
  std::int64_t buffer_length(int buf) const {
    if (const LocalArray* a = local_array(buf)) return a->length;
    return b_.lengths[static_cast<std::size_t>(buf)];
  }

  void note_uninitialized(int buf, std::int64_t index, SrcPos at) {
    for (const UninitializedRead& u : b_.uninitialized)
      if (u.line == at.line) return;
    if (b_.uninitialized.size() < 16)
      b_.uninitialized.push_back({at.line, at.col, x_.thread(), buffer_name(buf) + "[" + std::to_string(index) + "]"});
  }

  // A value read from a cell never written reaches what makes it a bug: said at the read's line.
  [[noreturn]] void taint_fault(const Value& v, SrcPos at, const std::string& reaches) const {
    std::string cell = "a cell";
    for (const UninitializedRead& u : b_.uninitialized)
      if (u.line == v.taint) cell = u.cell;
    b_.fault("uninitialized-read", SrcPos{v.taint, 1, 0},
             "thread " + std::to_string(x_.thread()) + " reads " + cell + " before anything was written to it, and the value " + reaches +
                 " at line " + std::to_string(at.line));
  }

  std::int64_t cell(const Value& p, const Value& index, const Expr& at) const {
    if (p.taint || index.taint) taint_fault(p.taint ? p : index, at.pos, "is used as an address");
    if (p.buf == -1) b_.fault("out-of-bounds", at.pos, "thread " + std::to_string(x_.thread()) + " accesses memory through a null pointer");
    const std::int64_t c = add64(p.i, index.i);
    const std::int64_t length = buffer_length(p.buf);
    if (c < 0 || c >= length)
      b_.fault("out-of-bounds", at.pos, "thread " + std::to_string(x_.thread()) + " accesses " + buffer_name(p.buf) + "[" +
                                            std::to_string(c) + "], outside its " + std::to_string(length) + " elements");
    if (static_cast<std::int64_t>(b_.trace.events.size()) > b_.budget.events)
      b_.fault("budget", at.pos, "the trace passed " + std::to_string(b_.budget.events) + " events (the memory budget)");
    return c;
  }

  Payload encode(const Value& v, Base declared) const {
    const bool element = declared == k_.element.base;
    if (b_.symbolic && element) return Payload::of(v.iv);
    const double num = is_floating(declared) ? v.f : as_double(declared, v.i);
    switch (b_.bind.run_type) {
      case ValueType::F32: return Payload::of(static_cast<float>(num));
      case ValueType::F64: return Payload::of(num);
      case ValueType::I32: return Payload::of(static_cast<std::int32_t>(v.i));
      case ValueType::I64: return Payload::of(v.i);
      case ValueType::Interval: return Payload::of(Interval::range(static_cast<std::int32_t>(v.i), static_cast<std::int32_t>(v.i)));
    }
    return {};
  }

  Value decode(const Payload& p, Base declared) const {
    Value v;
    if (b_.symbolic && declared == k_.element.base) {
      v.iv = p.as<Interval>();
      return v;
    }
    switch (b_.bind.run_type) {
      case ValueType::F32: v.f = p.as<float>(); break;
      case ValueType::F64: v.f = p.as<double>(); break;
      case ValueType::I32: v.i = p.as<std::int32_t>(); v.f = static_cast<double>(v.i); break;
      case ValueType::I64: v.i = p.as<std::int64_t>(); v.f = static_cast<double>(v.i); break;
      case ValueType::Interval: v.i = p.as<Interval>().lo; break;
    }
    if (is_integer(declared) && (b_.bind.run_type == ValueType::F32 || b_.bind.run_type == ValueType::F64))
      v.i = wrap(declared, static_cast<std::int64_t>(v.f));
    return v;
  }

  // A read of a cell never written is no fault by itself: the value carries the read's line, and
  // what it reaches decides (an output, an address, a branch: taint_fault); one that reaches nothing
  // is a warning (the textbook Brent-Kung reads its unloaded tail and is correct).
  Value load(int buf, std::int64_t index, Base declared, SrcPos at) {
    if (const LocalArray* a = local_array(buf)) {  // a register of the thread's: its value as it was stored
      const auto slot = static_cast<std::size_t>(a->first + index);
      if (defined_[slot]) return frame_[slot];
      Value v;
      v.taint = at.line ? at.line : 1;
      note_uninitialized(buf, index, at);
      return v;
    }
    bool undefined = false;
    Value v = decode(x_.read_maybe_undefined(buf, index, at.line, &undefined), declared);
    if (undefined) {
      const auto p = b_.poisoned.find(Block::cell_key(buf, index));
      if (p != b_.poisoned.end()) {
        v.taint = p->second;
      } else {
        v.taint = at.line ? at.line : 1;
        note_uninitialized(buf, index, at);
      }
    }
    v.origin = declared == k_.element.base ? Origin::cell(static_cast<std::uint8_t>(buf), index) : Origin::none();
    return v;
  }

  void store(int buf, std::int64_t index, const Value& v, Base declared, SrcPos at) {
    if (const LocalArray* a = local_array(buf)) {
      const auto slot = static_cast<std::size_t>(a->first + index);
      frame_[slot] = v;
      defined_[slot] = 1;
      return;
    }
    if (v.taint && buf < b_.globals) taint_fault(v, at, "is stored to " + buffer_name(buf) + "[" + std::to_string(index) + "]");
    if (v.taint) b_.poisoned[Block::cell_key(buf, index)] = v.taint;
    x_.write_maybe_undefined(buf, index, encode(v, declared), declared == k_.element.base ? v.origin : Origin::none(), at.line, v.taint != 0);
  }

  // ---- arithmetic ----
  Value convert(const Value& v, Type from, Type to, SrcPos at) const {
    return convert_value(v, from, to, sym(from.base), sym(to.base), at, faulter());
  }

  template <class T, class Op>
  Value record(Op op, T a, T b, Origin oa, Origin ob, SrcPos at) {
    const EmuVal<T> r = x_.op(op, EmuVal<T>{a, oa}, EmuVal<T>{b, ob}, at.line);
    Value v;
    if constexpr (std::is_same_v<T, Interval>) v.iv = r.v;
    else if constexpr (std::is_floating_point_v<T>) v.f = r.v;
    else v.i = r.v;
    v.origin = r.origin;
    return v;
  }

  // The scan's operator applied to two element values: an operation of the trace.
  Value apply_operator(const Value& a, const Value& b, Base t, SrcPos at) {
    if (b_.symbolic) return record(EitherOrderInterval{}, a.iv, b.iv, a.origin, b.origin, at);
    switch (b_.bind.run_type) {
      case ValueType::F32: return record(SumOp<float>{}, static_cast<float>(a.f), static_cast<float>(b.f), a.origin, b.origin, at);
      case ValueType::F64: return record(SumOp<double>{}, a.f, b.f, a.origin, b.origin, at);
      case ValueType::I64: return record(SumOp<std::int64_t>{}, a.i, b.i, a.origin, b.origin, at);
      default: {
        Value v = record(SumOp<std::int32_t>{}, static_cast<std::int32_t>(a.i), static_cast<std::int32_t>(b.i), a.origin, b.origin, at);
        v.i = wrap(t, v.i);
        return v;
      }
    }
  }

  Value binary(BinOp op, Base t, const Value& a, const Value& b, SrcPos at, Base result_base) {
    Value r;
    // Work is the operator applied to two values from the input; adding a constant passes the other on.
    const bool a_data = a.origin.kind != Origin::None, b_data = b.origin.kind != Origin::None;
    if (op == BinOp::Add && result_base == k_.element.base && a_data && b_data) return apply_operator(a, b, t, at);
    if (op == BinOp::Add && result_base == k_.element.base && (a_data || b_data))
      r.origin = a_data ? a.origin : b.origin;
    if (sym(t)) {
      if (op == BinOp::Add) {
        r.iv = EitherOrderInterval{}(a.iv, b.iv);
        return r;  // with the origin set above
      }
      if (op == BinOp::Eq || op == BinOp::Ne) {
        r.i = (a.iv == b.iv) == (op == BinOp::Eq);
        return r;
      }
      b_.fault("runtime", at, "only + (the scan's operator) applies to symbolic values (--op interval)");
    }
    return numeric_binary(r, op, t, a, b, result_base, a_data || b_data, at, faulter());
  }

  // Faults of the value functions (interpreter_values.hpp), said with this thread and the kernel's file.
  Faulter faulter() const { return Faulter{k_.file, x_.thread()}; }

  // ---- places ----
  struct Place {
    enum Kind { Local, Memory } kind = Local;
    std::int64_t slot = 0;
    int buf = 0;
    std::int64_t index = 0;
    Base elem = Base::Int;
  };
  static Place local_place(const Expr& local) { return Place{Place::Local, local.ival}; }
  // The cell PlaceScalar or PlacePointer pushed, as the place of the memory expression `at`.
  static Place cell_place(const Value& cell, const Expr& at) { return Place{Place::Memory, 0, cell.buf, cell.i, at.type.base}; }

  Value get(const Place& p, const Expr& at) {
    if (p.kind == Place::Local) {
      if (!defined_[static_cast<std::size_t>(p.slot)]) uninitialized(p.slot, at);
      return frame_[static_cast<std::size_t>(p.slot)];
    }
    return load(p.buf, p.index, p.elem, at.pos);
  }

  [[noreturn]] __attribute__((noinline)) void uninitialized(std::int64_t slot, const Expr& at) const {
    b_.fault("uninitialized-read", at.pos, "thread " + std::to_string(x_.thread()) + " reads local '" +
                                               k_.local_names[static_cast<std::size_t>(slot)] + "' before anything was assigned to it");
  }

  void set(const Place& p, const Value& v, const Expr& at) {
    if (p.kind == Place::Local) {
      frame_[static_cast<std::size_t>(p.slot)] = v;
      defined_[static_cast<std::size_t>(p.slot)] = 1;
      return;
    }
    store(p.buf, p.index, v, p.elem, at.pos);
  }

  // ---- the machine (bytecode.hpp) ----
  // One loop over the instructions, the operand stack in the thread's own memory: an access suspends
  // this one frame and the emulator's below it, however deep the expression.
  void execute() {
    const Instr* const code = b_.program.code.data();
    Value* sp = stack_;
    for (std::size_t pc = 0;;) {
      const Instr& in = code[pc++];
      const Expr* const e = in.e;
      switch (in.op) {
        case Op::Tick: b_.statements += in.arg; break;
        case Op::LoopTick: loop_tick(in.s->pos); break;
        case Op::Jump: pc = static_cast<std::size_t>(in.arg); break;
        case Op::JumpFalse:
          if ((--sp)->taint) branch_fault(*sp, code, pc);
          if (sp->i == 0) pc = static_cast<std::size_t>(in.arg);  // conditions are bool: the parser converted them
          break;
        case Op::JumpTrue:
          if ((--sp)->taint) branch_fault(*sp, code, pc);
          if (sp->i != 0) pc = static_cast<std::size_t>(in.arg);
          break;
        case Op::Pop: --sp; break;
        case Op::Halt: return;
        case Op::PushInt: *sp++ = integer(in.imm); break;
        case Op::PushFloat: *sp++ = floating(*e); break;
        case Op::PushShared: *sp++ = shared_array(*e); break;
        case Op::PushLocalArray: {
          Value v;
          v.buf = local_buffer(e->ival);
          *sp++ = v;
          break;
        }
        case Op::PushBuiltin: *sp++ = builtin(*e); break;
        case Op::LoadLocal: *sp++ = get(local_place(*e), *e); break;
        case Op::LoadScalar: *sp++ = load(b_.shared_buffer[static_cast<std::size_t>(e->ival)], 0, e->type.base, e->pos); break;
        case Op::LoadIndex: {
          const std::int64_t c = cell(sp[-2], sp[-1], *e);
          --sp;
          sp[-1] = load(sp[-1].buf, c, e->type.base, e->pos);
          break;
        }
        case Op::PlaceScalar: *sp++ = shared_array(*e); break;  // the scalar's one cell, index 0
        case Op::PlacePointer: {
          const std::int64_t c = cell(sp[-2], sp[-1], *e);
          --sp;
          sp[-1].i = c;
          break;
        }
        case Op::Unary: {
          const std::uint32_t taint = sp[-1].taint;
          sp[-1] = unary(*e, sp[-1]);
          sp[-1].taint = taint;
          break;
        }
        case Op::Binary: {
          --sp;
          const std::uint32_t taint = taint_of(sp[-1], sp[0]);
          sp[-1] = binary(static_cast<BinOp>(e->op), e->a->type.base, sp[-1], sp[0], e->pos, e->a->type.pointer ? Base::Void : e->type.base);
          sp[-1].taint = taint;
          break;
        }
        case Op::Convert: {
          const std::uint32_t taint = sp[-1].taint;
          sp[-1] = convert(sp[-1], e->a->type, e->type, e->pos);
          sp[-1].taint = taint;
          break;
        }
        case Op::AssignLocal: sp[-1] = assign(*e, local_place(*e->a), sp[-1]); break;
        case Op::AssignCell:
          --sp;
          sp[-1] = assign(*e, cell_place(sp[-1], *e->a), sp[0]);
          break;
        case Op::IncDecLocal: *sp++ = incdec(*e, local_place(*e->a)); break;
        case Op::IncDecCell: sp[-1] = incdec(*e, cell_place(sp[-1], *e->a)); break;
        case Op::Shuffle: {
          const Value width = e->d ? *--sp : integer(32);
          --sp;
          if (width.taint || sp[0].taint) taint_fault(width.taint ? width : sp[0], e->pos, "says a shuffle's lane");
          sp[-1] = shuffle(*e, sp[-1], sp[0].i, width.i);
          break;
        }
        case Op::AtomicAdd: {
          const Value v = *--sp;
          const Value compare = e->c ? *--sp : Value{};
          if (v.taint || compare.taint) taint_fault(v.taint ? v : compare, e->pos, "is given to an atomic");
          if (local_array(sp[-1].buf)) b_.fault("unsupported", e->pos, "an atomic on " + buffer_name(sp[-1].buf) + ": no other thread can see it");
          sp[-1] = atomic_update(*e, cell_place(sp[-1], *e->a), v, compare);
          break;
        }
        case Op::Declare:
          frame_[static_cast<std::size_t>(in.s->slot)] = *--sp;
          defined_[static_cast<std::size_t>(in.s->slot)] = 1;
          break;
        case Op::Undefine: defined_[static_cast<std::size_t>(in.s->slot)] = 0; break;
        case Op::Barrier: barrier(*in.s, in.loop); break;
        case Op::Fence: x_.fence(in.s->pos.line); break;
        case Op::StoreSlot:
          frame_[static_cast<std::size_t>(in.arg)] = *--sp;
          defined_[static_cast<std::size_t>(in.arg)] = 1;
          break;
        case Op::PtrAdd: {
          const std::int64_t by = (--sp)->i;
          sp[-1].i = e->op ? sub64(sp[-1].i, by) : add64(sp[-1].i, by);
          break;
        }
        case Op::MinMax: {
          --sp;
          const std::uint32_t taint = taint_of(sp[-1], sp[0]);
          sp[-1] = min_max(*e, sp[-1], sp[0]);
          sp[-1].taint = taint;
          break;
        }
        case Op::Abs: sp[-1] = absolute(*e, sp[-1]); break;
        case Op::Bits: sp[-1] = bits(*e, sp[-1]); break;
        case Op::Vote: {
          Value mask = integer(static_cast<std::int64_t>(0xffffffffu)), pred = integer(1);
          if (e->a) {
            pred = *--sp;
            mask = *--sp;
            if (pred.taint || mask.taint) taint_fault(pred.taint ? pred : mask, e->pos, "is a warp vote");
          }
          *sp++ = vote(*e, static_cast<std::uint32_t>(mask.i), pred.i != 0);
          break;
        }
        case Op::Assert:
          if ((--sp)->taint) taint_fault(*sp, in.s->pos, "decides an assert");
          if (sp->i == 0) b_.fault("runtime", in.s->pos, "assert failed in thread " + std::to_string(x_.thread()));
          break;
        case Op::Printf: {
          const std::size_t n = e->args.size();
          sp -= n;
          print(*e, sp);
          *sp++ = integer(0);
          break;
        }
        case Op::Launch:
        case Op::Api: {
          const std::size_t n = e->args.size();
          sp -= n;
          const Value r = in.op == Op::Launch ? launch(*e, sp) : host_api(*e, sp);
          *sp++ = r;
          break;
        }
        case Op::NoReturn:
          b_.fault("runtime", e->pos, "'" + k_.functions[static_cast<std::size_t>(e->ival)].name + "' ended without returning a value (thread " +
                                          std::to_string(x_.thread()) + ")");
      }
    }
  }

  // A condition computed from a cell never written: the line is the branch's, found from the code
  // around the jump (the instruction before it computed the condition).
  [[noreturn]] void branch_fault(const Value& v, const Instr* code, std::size_t pc) const {
    SrcPos at{v.taint, 1, 0};
    for (std::size_t k = pc; k-- > 0;)
      if (code[k].e || code[k].s) {
        at = code[k].e ? code[k].e->pos : code[k].s->pos;
        break;
      }
    taint_fault(v, at, "decides a branch");
  }

  static Value integer(std::int64_t i) {
    Value v;
    v.i = i;
    return v;
  }

  Value floating(const Expr& e) const {
    Value v;
    if (b_.symbolic) {
      if (e.fval != 0) b_.fault("runtime", e.pos, "the constant " + std::to_string(e.fval) + " cannot be a symbolic value (--op interval): only 0, the identity, can");
      return v;
    }
    v.f = e.fval;
    return v;
  }

  // A shared array (a pointer to its first cell), or a shared scalar's cell.
  Value shared_array(const Expr& e) const {
    Value v;
    v.buf = b_.shared_buffer[static_cast<std::size_t>(e.ival)];
    return v;
  }

  Value builtin(const Expr& e) const {
    switch (static_cast<Builtin>(e.ival)) {
      case Builtin::ThreadIdx: return integer(x_.thread());
      case Builtin::BlockIdx: return integer(b_.bind.block_id);
      case Builtin::BlockDim: return integer(b_.bind.threads);
      case Builtin::GridDim: return integer(b_.bind.grid);
      case Builtin::WarpSize: return integer(32);
      case Builtin::LaneId: return integer(x_.thread() % 32);
    }
    return {};
  }

  Value unary(const Expr& e, const Value& a) {
    const auto op = static_cast<UnOp>(e.op);
    if (op == UnOp::Plus) return a;
    if (op == UnOp::Not) return integer(!a.i);
    if (sym(e.type.base)) b_.fault("runtime", e.pos, "only + (the scan's operator) applies to symbolic values (--op interval)");
    Value r;
    if (op == UnOp::BitNot) r.i = wrap(e.type.base, ~a.i);
    else if (is_floating(e.type.base)) r.f = -a.f;
    else r.i = wrap(e.type.base, sub64(0, a.i));
    return r;
  }

  Value min_max(const Expr& e, const Value& a, const Value& b) const {
    if (sym(e.type.base)) b_.fault("runtime", e.pos, "min and max do not apply to symbolic values (--op interval)");
    bool take_b;
    if (is_floating(e.type.base)) take_b = e.op ? b.f > a.f : b.f < a.f;
    else if (e.type.base == Base::ULong) take_b = e.op ? static_cast<std::uint64_t>(b.i) > static_cast<std::uint64_t>(a.i) : static_cast<std::uint64_t>(b.i) < static_cast<std::uint64_t>(a.i);
    else take_b = e.op ? b.i > a.i : b.i < a.i;
    return take_b ? b : a;
  }

  Value absolute(const Expr& e, Value v) const {
    if (sym(e.type.base)) b_.fault("runtime", e.pos, "abs does not apply to symbolic values (--op interval)");
    if (is_floating(e.type.base)) v.f = std::abs(v.f);
    else if (!is_unsigned(e.type.base)) v.i = wrap(e.type.base, v.i < 0 ? sub64(0, v.i) : v.i);
    return v;
  }

  // __popc, __ffs, __clz (counts, new values) and __brev (the operand's bits reversed).
  Value bits(const Expr& e, Value v) const {
    const auto kind = static_cast<BitsKind>(e.op);
    const std::int64_t r = bit_intrinsic(kind, is_wide(e.a->type.base), v.i);
    if (kind != BitsKind::Brev) return integer(r);
    v.i = r;
    return v;
  }

  // A warp vote: the lanes of the emulated warp that take part, and which of them voted non-zero,
  // masked by `mask` as CUDA does.
  Value vote(const Expr& e, std::uint32_t mask, bool pred) {
    if (b_.bind.warp < 32 && b_.bind.threads > b_.bind.warp)
      b_.fault("unsupported", e.pos, "a warp vote in a block emulated with warps of " + std::to_string(b_.bind.warp) +
                                         " lanes: a GPU's warp has 32 (--warp 32)");
    const WarpVote w = x_.vote(pred, e.pos.line);
    switch (static_cast<VoteKind>(e.op)) {
      case VoteKind::Ballot: return integer(w.votes & mask);
      case VoteKind::Any: return integer((w.votes & mask) != 0);
      case VoteKind::All: return integer((w.votes & mask & w.present) == (mask & w.present));
      case VoteKind::Active: return integer(w.present);
    }
    return integer(0);
  }

  // `p = rhs` or `p op= rhs` (e: Assign): the target was placed before the value was computed.
  Value assign(const Expr& e, const Place& p, Value rhs) {
    const auto op = static_cast<BinOp>(e.op);
    if (op != BinOp::None) {
      const Type common = e.b->type;  // the parser converted the right side to the common type
      const Value old = convert(get(p, *e.a), e.a->type, common, e.pos);
      const std::uint32_t taint = taint_of(old, rhs);
      rhs = convert(binary(op, common.base, old, rhs, e.pos, common.base), common, e.a->type, e.pos);
      rhs.taint = taint;
    }
    set(p, rhs, *e.a);
    return rhs;
  }

  Value incdec(const Expr& e, const Place& p) {
    const Value old = get(p, *e.a);
    if (sym(e.type.base)) b_.fault("runtime", e.pos, "++ and -- do not apply to symbolic values (--op interval)");
    Value now;
    if (is_floating(e.type.base)) {
      now.f = old.f + (e.op ? -1 : 1);
    } else {
      if (old.origin.kind == Origin::None) check_signed_overflow(e.op ? BinOp::Sub : BinOp::Add, e.type.base, old.i, 1, e.pos, faulter());
      now.i = wrap(e.type.base, add64(old.i, e.op ? -1 : 1));
    }
    now.taint = old.taint;
    set(p, now, *e.a);
    return e.prefix ? now : old;
  }

  Value shuffle(const Expr& e, Value v, std::int64_t lane, std::int64_t width) {
    const std::int32_t warp = b_.bind.warp;
    if (width < warp) b_.fault("unsupported", e.pos, "a shuffle narrower (" + std::to_string(width) + " lanes) than the emulated warp (" + std::to_string(warp) + ")");
    const auto kind = static_cast<ShflKind>(e.op);
    std::int64_t d = lane;
    if (kind == ShflKind::Idx) d = ((d % width) + width) % width;  // CUDA takes the source lane modulo the width
    if (d < 0 || d >= warp)
      b_.fault("runtime", e.pos, std::string(kind == ShflKind::Idx ? "shuffle from lane " : "shuffle offset ") + std::to_string(d) +
                                     " outside the emulated warp of " + std::to_string(warp) + " lanes (--warp)");
    static constexpr ShuffleKind kinds[] = {ShuffleKind::Up, ShuffleKind::Down, ShuffleKind::Index, ShuffleKind::Xor};
    const ShuffleKind k = kinds[e.op];
    const int delta = static_cast<int>(d);
    if (sym(e.type.base)) {
      const EmuVal<Interval> r = x_.shfl(k, EmuVal<Interval>{v.iv, v.origin}, delta, warp, e.pos.line);
      v.iv = r.v;
      v.origin = r.origin;
    } else if (is_floating(e.type.base)) {
      const EmuVal<double> r = x_.shfl(k, EmuVal<double>{v.f, v.origin}, delta, warp, e.pos.line);
      v.f = r.v;
      v.origin = r.origin;
    } else {
      const EmuVal<std::int64_t> r = x_.shfl(k, EmuVal<std::int64_t>{v.i, v.origin}, delta, warp, e.pos.line);
      v.i = r.v;
      v.origin = r.origin;
    }
    return v;
  }

  // atomicAdd(&cell, v) and the other atomics: the cell's old value, the cell updated (to old + v, v,
  // max(old, v), ...) in one indivisible access (one atomic write event). Adding two element values from
  // memory is an operation of the scan, as `+` is.
  Value atomic_update(const Expr& e, const Place& p, const Value& v, const Value& compare) {
    const bool element = p.elem == k_.element.base;
    const Origin cell = element ? Origin::cell(static_cast<std::uint8_t>(p.buf), p.index) : Origin::none();
    const auto kind = static_cast<AtomicKind>(e.op);
    if (b_.symbolic && element && kind != AtomicKind::Add && kind != AtomicKind::Exch)
      b_.fault("runtime", e.pos, "only atomicAdd and atomicExch apply to symbolic values (--op interval)");
    const Payload old = x_.atomic(p.buf, p.index, [&](const Payload& before) {
      Value o = decode(before, p.elem);
      o.origin = cell;
      Value now;
      switch (kind) {
        case AtomicKind::Add: now = binary(BinOp::Add, p.elem, o, v, e.pos, p.elem); break;
        case AtomicKind::Sub: now = binary(BinOp::Sub, p.elem, o, v, e.pos, Base::Void); break;  // not the scan's operator
        case AtomicKind::Exch: now = v; break;
        case AtomicKind::Max:
        case AtomicKind::Min: {
          const bool less = binary(BinOp::Lt, p.elem, o, v, e.pos, Base::Bool).i != 0;
          now = (kind == AtomicKind::Max) == less ? v : o;
          break;
        }
        case AtomicKind::And: now = binary(BinOp::BitAnd, p.elem, o, v, e.pos, Base::Void); break;
        case AtomicKind::Or: now = binary(BinOp::BitOr, p.elem, o, v, e.pos, Base::Void); break;
        case AtomicKind::Xor: now = binary(BinOp::BitXor, p.elem, o, v, e.pos, Base::Void); break;
        case AtomicKind::CAS: now = binary(BinOp::Eq, p.elem, o, compare, e.pos, Base::Bool).i ? v : o; break;
      }
      return std::pair<Payload, Origin>{encode(now, p.elem), element ? now.origin : Origin::none()};
    }, e.pos.line);
    Value r = decode(old, p.elem);
    r.origin = cell;
    return r;
  }


  // printf: one line of the run's output, said with the thread that printed it (a GPU prints each
  // thread's line too, in no order a program may rely on).
  void print(const Expr& e, const Value* args) const {
    std::vector<std::string>* out = b_.bind.printed;
    if (!out || out->size() >= kMaxPrinted) return;
    std::vector<PrintfArg> values;
    for (std::size_t a = 0; a < e.args.size(); ++a) {
      const Type t = e.args[a]->type;
      values.push_back({is_floating(t.base) && !t.pointer, t.pointer, args[a].i, args[a].f});
    }
    std::string line = format_printf(k_.formats[static_cast<std::size_t>(e.ival)], values);
    while (!line.empty() && line.back() == '\n') line.pop_back();
    const std::string who = k_.host ? "host" : "block " + std::to_string(x_.block()) + ", thread " + std::to_string(x_.thread());
    out->push_back(who + ", line " + std::to_string(e.pos.line) + ": " + line);
  }

  // ---- host code (Kernel::host): one thread, run directly; launches and allocations by b_.bind.host ----
  Value launch(const Expr& e, const Value* args) {
    b_.bind.host->launch(b_.emu, k_.launched[static_cast<std::size_t>(e.ival)], e, host_values(e, args, "is passed to a launch"));
    return integer(0);
  }

  std::vector<HostValue> host_values(const Expr& e, const Value* args, const char* reaches) const {
    std::vector<HostValue> values;
    for (std::size_t a = 0; a < e.args.size(); ++a) {
      if (args[a].taint) taint_fault(args[a], e.args[a]->pos, reaches);
      values.push_back({args[a].buf, args[a].i, args[a].f});
    }
    return values;
  }

  // The buffers a call allocated, known to this thread's bounds checks too.
  void learn_buffers() {
    for (auto g = static_cast<int>(b_.lengths.size()); g < b_.emu.buffers(); ++g) {
      b_.names.push_back(b_.trace.buffers[static_cast<std::size_t>(g)].name);
      b_.lengths.push_back(static_cast<std::int64_t>(b_.emu.buffer_values(g).size()));
    }
  }

  // The cells a call's `bytes` covers of pointer `p` (of element type `elem`), checked against its buffer.
  std::int64_t span(const Value& p, std::int64_t bytes, Base elem, const Expr& e, const char* call, const char* verb) const {
    const std::int64_t size = size_of(Type{elem, false});
    const std::int64_t cells = bytes / size;
    if (bytes < 0 || bytes % size != 0)
      b_.fault("runtime", e.pos, std::string(call) + " of " + std::to_string(bytes) + " bytes: not a whole number of " + type_name(Type{elem, false}) + " elements");
    if (cells == 0) return 0;
    if (p.buf < 0) b_.fault("out-of-bounds", e.pos, std::string(call) + " " + verb + " a null pointer");
    const std::int64_t length = b_.lengths[static_cast<std::size_t>(p.buf)];
    if (p.i < 0 || cells > length - p.i)
      b_.fault("out-of-bounds", e.pos, std::string(call) + " " + verb + " " + buffer_name(p.buf) + "[" + std::to_string(p.i) + ".." +
                                           std::to_string(p.i + cells - 1) + "], outside its " + std::to_string(length) + " elements");
    return cells;
  }

  Value host_api(const Expr& e, const Value* args) {
    const std::vector<HostValue> values = host_values(e, args, "is passed to a call of the host");
    switch (static_cast<ApiKind>(e.op)) {
      case ApiKind::Call:
        b_.bind.host->call(b_.emu, k_.called[static_cast<std::size_t>(e.ival)], e, values);
        learn_buffers();
        return integer(0);
      case ApiKind::Malloc:
      case ApiKind::Alloc:
      case ApiKind::NewArray: {
        const Base elem = e.a ? e.a->type.base : e.type.base;  // cudaMalloc's pointer, or what malloc's value points to
        const std::int64_t count = static_cast<ApiKind>(e.op) == ApiKind::NewArray ? args[0].i : args[0].i / size_of(Type{elem, false});
        if (elem == Base::Void) b_.fault("unsupported", e.pos, "malloc without a cast to the element's pointer type");
        if (count < 0 || count > (std::int64_t{1} << 24))
          b_.fault("limit", e.pos, "an allocation of " + std::to_string(count) + " elements (0 to 2^24 are run)");
        const std::string name = e.ival >= 0 ? k_.local_names[static_cast<std::size_t>(e.ival)] : "heap@" + std::to_string(e.pos.line);
        Value p;
        p.buf = b_.bind.host->allocate(b_.emu, name, count, e.pos);
        b_.names.push_back(name);
        b_.lengths.push_back(count);
        if (e.ival < 0) return p;
        frame_[static_cast<std::size_t>(e.ival)] = p;
        defined_[static_cast<std::size_t>(e.ival)] = 1;
        return integer(0);
      }
      case ApiKind::Copy: {
        const Base elem = e.args[0]->type.base;
        const std::int64_t cells = span(args[0], args[2].i, elem, e, "cudaMemcpy", "writes");
        (void)span(args[1], args[2].i, elem, e, "cudaMemcpy", "reads");
        for (std::int64_t c = 0; c < cells; ++c) {
          bool undefined = false;
          const Payload v = x_.read_maybe_undefined(args[1].buf, args[1].i + c, e.pos.line, &undefined);
          x_.write_maybe_undefined(args[0].buf, args[0].i + c, v, Origin::cell(static_cast<std::uint8_t>(args[1].buf), args[1].i + c), e.pos.line, undefined);
        }
        return integer(0);
      }
      case ApiKind::Set: {
        const Base elem = e.args[0]->type.base;
        const std::int64_t cells = span(args[0], args[2].i, elem, e, "cudaMemset", "writes");
        const std::int64_t byte = args[1].i & 0xff;
        if (byte != 0 && (byte != 0xff || !is_integer(elem)))
          b_.fault("unsupported", e.pos, "cudaMemset to the byte " + std::to_string(byte) + ": only 0, and 0xff (-1) of integers, are run");
        Value v;
        v.i = byte ? -1 : 0;
        for (std::int64_t c = 0; c < cells; ++c) store(args[0].buf, args[0].i + c, v, elem, e.pos);
        return integer(0);
      }
      case ApiKind::Exit:
        b_.fault("runtime", e.pos, "the host code calls exit(" + std::to_string(e.args.empty() ? 1 : args[0].i) + ")");
      case ApiKind::Nop: break;
    }
    if (e.ival >= 0) {  // cudaEventElapsedTime(&ms, ...): the time is 0 here
      frame_[static_cast<std::size_t>(e.ival)] = Value{};
      defined_[static_cast<std::size_t>(e.ival)] = 1;
    }
    Value r;
    return r;  // 0, or a null pointer (buf -1)
  }

  // ---- statements ----
  void barrier(const Stmt& s, const Stmt* loop) {
    const auto t = static_cast<std::size_t>(x_.thread());
    const auto k = static_cast<std::size_t>(b_.passed[t]);
    if (k < b_.barrier_line.size() && b_.barrier_line[k] != s.pos.line)
      b_.fault("barrier-divergence", s.pos, "thread " + std::to_string(t) + " waits at this __syncthreads() while other threads wait at the one on line " +
                                                std::to_string(b_.barrier_line[k]) + ": a barrier not every thread of the block reaches");
    if (k == b_.barrier_line.size()) b_.barrier_line.push_back(s.pos.line);
    if (static_cast<std::int64_t>(k) + 1 >= b_.budget.steps)
      b_.fault("budget", loop ? loop->pos : s.pos, "more than " + std::to_string(b_.budget.steps) +
                                                     " barriers (each is a step the trace keeps): does this loop end?");
    std::int64_t cells = 0;
    for (const std::int64_t length : b_.lengths) cells += length;
    if ((static_cast<std::int64_t>(k) + 2) * cells > b_.budget.snapshot_cells)
      b_.fault("budget", loop ? loop->pos : s.pos, "the trace keeps every buffer (" + std::to_string(cells) + " cells) at each of " +
                                                     std::to_string(k + 2) + " steps, more than " + std::to_string(b_.budget.snapshot_cells) +
                                                     " cells: use fewer barriers or a smaller n");
    x_.sync(s.pos.line);
    ++b_.passed[t];
    x_.step(Phase::Interval, static_cast<std::int64_t>(k) + 1, s.pos.line);
  }

  Block& b_;
  const Kernel& k_;
  EmuExec& x_;
  Value* frame_;  // the locals' slots
  Value* stack_;  // the operand stack, after them
  std::uint8_t* defined_;
};

}  // namespace

std::int64_t interpret(BlockEmulator& emu, const Kernel& k, const Binding& bind, const Trace& trace, const Budget& budget,
                       std::vector<UninitializedRead>* uninitialized) {
  Block blk{emu, k, bind, budget, trace};
  blk.symbolic = bind.run_type == ValueType::Interval;
  blk.passed.assign(static_cast<std::size_t>(bind.threads), 0);
  blk.values.assign(static_cast<std::size_t>(bind.threads) * static_cast<std::size_t>(k.slots + blk.program.stack), Value{});
  blk.defined.assign(static_cast<std::size_t>(bind.threads) * static_cast<std::size_t>(k.slots), 0);
  const auto globals = static_cast<std::int32_t>(trace.buffers.size());  // input, output, partial sums, the launch's others
  blk.globals = globals;
  for (std::int32_t g = 0; g < globals; ++g) {
    blk.names.push_back(trace.buffers[static_cast<std::size_t>(g)].name);
    blk.lengths.push_back(static_cast<std::int64_t>(emu.buffer_values(g).size()));
  }
  for (std::size_t p = 0; p < k.params.size(); ++p)
    if (bind.param_buffer[p] >= 0) blk.names[static_cast<std::size_t>(bind.param_buffer[p])] = k.params[p].name;
  std::int32_t dynamic = -1;  // the buffer of the extern __shared__ arrays, all one allocation
  for (std::size_t s = 0; s < k.shared.size(); ++s) {
    const SharedVar& v = k.shared[s];
    if (v.device) {  // global memory the launch made
      blk.shared_buffer.push_back(bind.device_buffer.at(s));
      continue;
    }
    if (v.dynamic && dynamic >= 0) {
      blk.shared_buffer.push_back(dynamic);
      continue;
    }
    blk.shared_buffer.push_back(static_cast<std::int32_t>(blk.names.size()));
    if (v.dynamic) dynamic = blk.shared_buffer.back();
    blk.names.push_back(v.name);
    blk.lengths.push_back(v.dynamic ? bind.dynamic_cells : v.length);
  }
  if (k.host) emu.run_direct([&](EmuExec& x) { Thread(blk, x).run(); });  // its launches run emulators of their own
  else emu.run([&](EmuExec& x) { Thread(blk, x).run(); });
  if (uninitialized) *uninitialized = blk.uninitialized;
  const auto [lo, hi] = std::minmax_element(blk.passed.begin(), blk.passed.end());
  if (lo != blk.passed.end() && *lo != *hi) {
    const auto line = blk.barrier_line[static_cast<std::size_t>(*lo)];
    std::int32_t missing = 0, reached = 0;
    for (std::size_t t = 0; t < blk.passed.size(); ++t) {
      if (blk.passed[t] == *lo) ++missing;
      else ++reached;
    }
    blk.fault("barrier-divergence", SrcPos{line, 1},
              "the __syncthreads() on this line is reached by " + std::to_string(reached) + (reached == 1 ? " thread" : " threads") +
                  " of the block but not by " + std::to_string(missing) + " (thread " + std::to_string(lo - blk.passed.begin()) +
                  " never reaches it): a barrier not every thread reaches");
  }
  return blk.statements;
}

}  // namespace sv::cuda
