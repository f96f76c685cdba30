// Keys for a terminal front end (`scanviz lesson`): at a terminal, key presses as they are typed
// (arrows, Home, End, Enter, space), the terminal's echo and line editing off only while the reader
// lives; from a pipe or a file, one key a line ("n", "next", "" for Enter, "play", "3").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <termios.h>

namespace sv {

enum class Key { Next, Previous, First, Last, Play, Predict, Help, Quit, Digit, Other };

struct KeyPress {
  Key key = Key::Other;
  int digit = 0;     // Key::Digit: 0 to 9
  std::string text;  // what was typed, for a message about an unknown key
};

// One line of piped input as a key. Words and the raw keys' letters both work; an escape sequence
// typed into the line (a terminal's arrow) too.
KeyPress key_of_line(std::string_view line);

class KeyReader {
 public:
  explicit KeyReader(int fd);
  ~KeyReader();  // gives the terminal its settings back
  KeyReader(const KeyReader&) = delete;
  KeyReader& operator=(const KeyReader&) = delete;

  bool from_terminal() const { return raw_; }
  // The next key; none when the input has ended (or, with `timeout_ms` >= 0, when no key came in
  // that time: only at a terminal, where a key press may interrupt playing).
  std::optional<KeyPress> next(int timeout_ms = -1);

 private:
  // One byte of input, or none at its end (or after `timeout_ms` >= 0 without one).
  std::optional<char> byte(int timeout_ms);
  std::optional<KeyPress> escape_sequence();

  int fd_;
  bool raw_ = false;
  termios saved_{};
  std::string pending_;  // bytes read past the line or key returned
  bool ended_ = false;
};

}  // namespace sv
