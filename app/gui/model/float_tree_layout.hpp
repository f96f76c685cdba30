// Where the float lesson draws an addition tree (analysis/float_error.hpp): leaves along the bottom in
// the order the additions meet them (a left operand left of its right one), each addition above its
// operands, the root at the top. In slots and levels; the panel scales them to pixels.
#pragma once

#include <vector>

#include "analysis/float_error.hpp"

namespace sv::gui {

struct TreeSpot {
  float slot = 0;  // leaves at 0, 1, 2, ...; an addition midway between its operands
  int level = 0;   // 0: the root; a node's level is the root's depth minus its own
};

struct TreeLayout {
  std::vector<TreeSpot> spots;  // one per node of the tree
  int leaves = 0, levels = 0;
};

TreeLayout layout_tree(const AdditionTree& tree);

}  // namespace sv::gui
