// The addition tree's layout (float_tree_layout.hpp).
#include "gui/model/float_tree_layout.hpp"

namespace sv::gui {

namespace {

float place(const AdditionTree& t, int node, int root_depth, TreeLayout& l) {
  const AdditionNode& n = t.nodes[static_cast<std::size_t>(node)];
  TreeSpot& s = l.spots[static_cast<std::size_t>(node)];
  s.level = root_depth - n.depth;
  s.slot = n.leaf() ? static_cast<float>(l.leaves++)
                    : (place(t, n.left, root_depth, l) + place(t, n.right, root_depth, l)) / 2;
  return s.slot;
}

}  // namespace

TreeLayout layout_tree(const AdditionTree& tree) {
  TreeLayout l;
  l.spots.resize(tree.nodes.size());
  if (tree.root < 0) return l;
  const int depth = tree.nodes[static_cast<std::size_t>(tree.root)].depth;
  place(tree, tree.root, depth, l);
  l.levels = depth + 1;
  return l;
}

}  // namespace sv::gui
