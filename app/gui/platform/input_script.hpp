// Scripted input for tests and demos (`scanviz gui --keys "p 2 tab 1 enter"`): key presses, typed
// text and clicks fed through the GLFW backend's own callbacks, as a person's input arrives.
#pragma once

#include <string>
#include <string_view>
#include <vector>

struct GLFWwindow;

namespace sv::gui {

struct ScriptedInput {
  enum Kind { Key, Text, Click, Wait, Drop, Save, Clip } kind = Key;
  int key = 0;        // GLFW key code
  bool shift = false, ctrl = false;
  std::string text;   // Key: the character it types, if any; Text: the characters; Drop, Clip: the file's path; Save: the file saved
  std::string from;   // Save: the file whose text it takes
  float x = 0, y = 0; // Click: window pixels
  int frames = 2;     // frames this input takes (pressed, then released)
};

// Tokens separated by blanks: a letter or digit (the key, typing it), enter, ctrl+enter, ctrl+LETTER
// (ctrl+a, ctrl+v: the key with Control held, typing nothing), tab, shift+tab, escape, backspace, left,
// right, up, down, home, end, space, pageup, pagedown; text:CHARS (typed without key presses);
// click:X,Y; wait:N (frames); drop:PATH (a file dropped on the window, as GLFW delivers it; drop:A,B,C
// drops several at once);
// save:FROM,TO (TO written with FROM's text, as another editor saves a file the window follows);
// clip:PATH (the file's text put on the system clipboard, as another program's copy does). Throws
// std::invalid_argument naming the bad token.
std::vector<ScriptedInput> parse_input_script(std::string_view script);

// Feeds the inputs due at `frame` (the first starts at frame `start`); a click moves the mouse
// pointer to its place, so mouse_x/mouse_y are set for the caller's pointer override. True when a
// save:FROM,TO wrote its file this frame: the caller looks at the followed file at once, so what a
// test sees does not depend on how many frames the file watch's period spans.
bool feed_input_script(const std::vector<ScriptedInput>& script, int frame, GLFWwindow* window, float& mouse_x,
                       float& mouse_y, int start = 3);

}  // namespace sv::gui
