// An output's addition tree from the trace's origins, and the lesson's words for it (float_error.hpp).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "analysis/float_error.hpp"
#include "core/exact_sum.hpp"

namespace sv {

namespace {

// Who wrote each cell, and what each thread read, in event order.
struct CellIndex {
  using Key = std::tuple<std::uint8_t, std::int64_t>;
  using ThreadKey = std::tuple<std::uint32_t, std::uint32_t, std::uint8_t, std::int64_t>;  // block, thread, cell
  std::map<Key, std::vector<std::uint64_t>> writes;
  std::map<Key, std::vector<std::uint64_t>> reads;
  std::map<ThreadKey, std::vector<std::uint64_t>> thread_reads;

  explicit CellIndex(const Trace& t) {
    for (const Event& e : t.events) {
      if (e.kind == EventKind::Write) writes[{e.buffer, e.index}].push_back(e.seq);
      if (e.kind == EventKind::Read) {
        reads[{e.buffer, e.index}].push_back(e.seq);
        thread_reads[{e.block, e.thread, e.buffer, e.index}].push_back(e.seq);
      }
    }
  }
  // The last of `seqs` before `seq`, or -1.
  static std::int64_t before(const std::vector<std::uint64_t>* seqs, std::uint64_t seq) {
    if (!seqs) return -1;
    const auto it = std::lower_bound(seqs->begin(), seqs->end(), seq);
    return it == seqs->begin() ? -1 : static_cast<std::int64_t>(*(it - 1));
  }
  template <class M, class K>
  static const std::vector<std::uint64_t>* find(const M& m, const K& k) {
    const auto it = m.find(k);
    return it == m.end() ? nullptr : &it->second;
  }
};

class TreeBuilder {
 public:
  TreeBuilder(const Trace& t, AdditionTree& tree) : t_(t), tree_(tree), cells_(t), input_(t.find_buffer("input")) {}

  // The node of the value `o` stands for, used by event `user` (a write or an operator application);
  // -1 for the identity.
  int node(const Origin& o, const Event& user, int guard = 0) {
    if (guard > 20000) throw std::invalid_argument("addition tree: origins do not end");
    if (o.kind == Origin::None) return -1;
    if (o.kind == Origin::OpResult) return op_node(static_cast<std::uint64_t>(o.index), guard);
    if (o.buffer == input_) return leaf(o.index);
    // A cell: the read that took the value (this thread's last read of it before; a shuffled operand
    // was read by another lane), then the write that read saw, whose own origin is followed.
    std::int64_t read = CellIndex::before(CellIndex::find(cells_.thread_reads, std::make_tuple(user.block, user.thread, o.buffer, o.index)), user.seq);
    if (read < 0) read = CellIndex::before(CellIndex::find(cells_.reads, std::make_tuple(o.buffer, o.index)), user.seq);
    const std::uint64_t at = read < 0 ? user.seq : static_cast<std::uint64_t>(read);
    const std::int64_t write = CellIndex::before(CellIndex::find(cells_.writes, std::make_tuple(o.buffer, o.index)), at);
    if (write < 0) return -1;  // never written: what the cell held at the start
    const Event& w = t_.events[static_cast<std::size_t>(write)];
    return node(w.a, w, guard + 1);
  }

 private:
  int leaf(std::int64_t index) {
    AdditionNode n;
    n.input = index;
    n.lowest = n.highest = index;
    n.value = float_value(t_.meta.type, t_.meta.input.at(static_cast<std::size_t>(index)));
    tree_.nodes.push_back(n);
    return static_cast<int>(tree_.nodes.size()) - 1;
  }

  int op_node(std::uint64_t seq, int guard) {
    if (seq >= t_.events.size() || t_.events[seq].kind != EventKind::Op)
      throw std::invalid_argument("addition tree: an operand's origin is no operator application");
    const Event& op = t_.events[seq];
    const int a = node(op.a, op, guard + 1), b = node(op.b, op, guard + 1);
    if (a < 0 || b < 0) return a < 0 ? b : a;  // an addition of the identity is exact
    AdditionNode n;
    n.left = a;
    n.right = b;
    n.seq = seq;
    n.value = float_value(t_.meta.type, op.value);
    const AdditionNode &l = tree_.nodes[static_cast<std::size_t>(a)], &r = tree_.nodes[static_cast<std::size_t>(b)];
    ExactSum s;
    s.add(l.value);
    s.add(r.value);
    n.rounding = s.minus(n.value);
    n.depth = 1 + std::max(l.depth, r.depth);
    n.lowest = std::min(l.lowest, r.lowest);
    n.highest = std::max(l.highest, r.highest);
    tree_.nodes.push_back(n);
    return static_cast<int>(tree_.nodes.size()) - 1;
  }

  const Trace& t_;
  AdditionTree& tree_;
  CellIndex cells_;
  int input_;
};

int leaves_under(const AdditionTree& t, int node) {
  const AdditionNode& n = t.nodes[static_cast<std::size_t>(node)];
  return n.leaf() ? 1 : leaves_under(t, n.left) + leaves_under(t, n.right);
}

std::string x(std::int64_t i) { return indexed_name('x', i); }

std::string expression(const AdditionTree& t, int node, int budget, bool outer) {
  const AdditionNode& n = t.nodes[static_cast<std::size_t>(node)];
  if (n.leaf()) return x(n.input);
  if (leaves_under(t, node) > budget && !outer) {
    std::string range = "(";
    range += x(n.lowest);
    range += "..";
    range += x(n.highest);
    return range + ")";
  }
  const std::string inner = expression(t, n.left, budget, false) + "+" + expression(t, n.right, budget, false);
  return outer ? inner : "(" + inner + ")";
}

// A chain that adds one input at a time, left to right: x0+x1 then +x2 ...
bool chain(const AdditionTree& t, int node) {
  const AdditionNode& n = t.nodes[static_cast<std::size_t>(node)];
  if (n.leaf()) return true;
  return t.nodes[static_cast<std::size_t>(n.right)].leaf() && chain(t, n.left);
}

std::string times(int k) { return k == 1 ? "once" : k == 2 ? "twice" : std::to_string(k) + " times"; }

}  // namespace

std::string indexed_name(char prefix, std::int64_t i) {
  std::string s(1, prefix);  // appended: GCC 12 warns falsely (-Wrestrict) on "x" + string
  s += std::to_string(i);
  return s;
}

int AdditionTree::additions() const {
  return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const AdditionNode& n) { return !n.leaf(); }));
}

int AdditionTree::inexact() const {
  return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const AdditionNode& n) { return !n.leaf() && n.rounding != 0; }));
}

AdditionTree addition_tree(const Trace& trace, std::int64_t cell) {
  if (!float_errors_apply(trace)) throw std::invalid_argument("addition tree: not a block-level sum of float or double");
  const int out = trace.find_buffer("output");
  if (cell < 0 || cell >= static_cast<std::int64_t>(trace.result.output.size()))
    throw std::invalid_argument("addition tree: no output " + std::to_string(cell));
  AdditionTree tree;
  const Event* last = nullptr;
  for (const Event& e : trace.events)
    if (e.kind == EventKind::Write && e.buffer == out && e.index == cell) last = &e;
  if (!last) return tree;
  TreeBuilder b(trace, tree);
  tree.root = b.node(last->a, *last);
  return tree;
}

std::string addition_order_text(const AdditionTree& tree, int leaves) {
  if (tree.root < 0) return "the identity (no input)";
  if (!chain(tree, tree.root) || tree.nodes[static_cast<std::size_t>(tree.root)].leaf())
    return expression(tree, tree.root, leaves, true);
  std::vector<std::int64_t> order;  // the chain's inputs, first to last
  for (int n = tree.root; n >= 0;) {
    const AdditionNode& a = tree.nodes[static_cast<std::size_t>(n)];
    if (a.leaf()) {
      order.push_back(a.input);
      break;
    }
    order.push_back(tree.nodes[static_cast<std::size_t>(a.right)].input);
    n = a.left;
  }
  std::reverse(order.begin(), order.end());
  std::string s = x(order[0]) + "+" + x(order[1]);
  const std::size_t shown = std::min<std::size_t>(order.size(), static_cast<std::size_t>(std::max(leaves, 3)));
  for (std::size_t i = 2; i < shown; ++i) s += " then +" + x(order[i]);
  if (shown < order.size()) s += " ... then +" + x(order.back());
  return s;
}

std::string float_narration(const FloatOutput& out, const AdditionTree& tree) {
  const std::string y = indexed_name('y', out.cell);
  if (tree.root < 0) return y + " is the identity, 0: nothing added, nothing rounded.";
  const int adds = tree.additions(), deep = tree.nodes[static_cast<std::size_t>(tree.root)].depth;
  std::string s = y + " = " + addition_order_text(tree, 4) + ": rounded " + times(adds);
  if (adds > 0) s += " (" + std::to_string(tree.inexact()) + " changed the sum), " + std::to_string(deep) + " addition" + (deep == 1 ? "" : "s") + " deep";
  s += "; error " + ulps_text(out.ulps) + " ULP. ";
  const int loop = static_cast<int>(std::max<std::int64_t>(0, out.count - 1));
  s += "The sequential loop rounds " + times(loop) + " before output " + std::to_string(out.cell) + ", " + std::to_string(loop) +
       " deep: error " + ulps_text(out.sequential_ulps) + " ULP.";
  return s;
}

}  // namespace sv
