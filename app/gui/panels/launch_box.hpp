// The "Your kernel" panel's launch box, above the editor: how the kernel runs, said as its host code
// says it (`prefix_sum<<<1, 1024>>>(in, out, n)`, or a host function that launches kernels:
// `scan_gpu(in, out, n)`), the lesson's `launch` field, which the page's links carry. Empty: the file's
// only kernel, its block inferred. Where an error suggests a launch (a file of several kernels), the
// box offers it to take with one click.
#pragma once

#include <string>

namespace sv::gui {

struct LaunchBox {
  std::string text;   // as typed, until Enter takes it
  std::string error;  // why the text typed is refused ("" when it was taken)
  bool focus = false;  // take the keyboard (once)
  bool active = false;  // the box had the keyboard last frame
  float take_rect[4] = {0, 0, 0, 0};  // where the suggestion's button was drawn (x, y, w, h; w 0: none), for tests
};

// The launch a message suggests: what follows its "--launch '" up to the quote ("" when none).
std::string suggested_launch(const std::string& message);

// A message of the command line's words in the window's: "give --block" (a kernel without a block
// macro) becomes the launch box, "--launch" the launch.
std::string window_words(std::string message);

// Draws the box and, where `message` suggests a launch other than the box's, a button that takes it.
// Returns true when `launch` changed (Enter in the box, or the suggestion taken): the kernel runs
// again with it.
bool launch_box(LaunchBox& b, std::string& launch, const std::string& message);

}  // namespace sv::gui
