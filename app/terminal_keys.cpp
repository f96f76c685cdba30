// Keys for a terminal front end (terminal_keys.hpp).
#include "terminal_keys.hpp"

#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>

namespace sv {

namespace {

constexpr int kEscapeWaitMs = 50;  // the rest of an arrow's sequence follows its escape at once

KeyPress press(Key k, std::string text = {}) { return {k, 0, std::move(text)}; }

// The keys a single character stands for, as typed at a terminal or alone on a line.
std::optional<KeyPress> key_of_char(char c) {
  switch (c) {
    case '\r':
    case '\n':
    case 'n': return press(Key::Next);
    case 'p': return press(Key::Previous);
    case 'g': return press(Key::First);
    case 'G': return press(Key::Last);
    case ' ': return press(Key::Play);
    case 'P': return press(Key::Predict);
    case 'h':
    case '?': return press(Key::Help);
    case 'q':
    case 'Q':
    case 3:  // Ctrl+C and Ctrl+D, which raw input reads as bytes
    case 4: return press(Key::Quit);
    default: break;
  }
  if (c >= '0' && c <= '9') return KeyPress{Key::Digit, c - '0', std::string(1, c)};
  return std::nullopt;
}

// An escape sequence's tail (after ESC): the arrows, Home and End as terminals send them.
std::optional<Key> key_of_sequence(std::string_view tail) {
  if (tail == "[C" || tail == "OC") return Key::Next;
  if (tail == "[D" || tail == "OD") return Key::Previous;
  if (tail == "[H" || tail == "OH" || tail == "[1~" || tail == "[7~") return Key::First;
  if (tail == "[F" || tail == "OF" || tail == "[4~" || tail == "[8~") return Key::Last;
  return std::nullopt;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

KeyPress key_of_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line == " ") return press(Key::Play);
  if (!line.empty() && line.front() == '\x1b')
    if (const auto k = key_of_sequence(line.substr(1))) return press(*k);
  const auto first = line.find_first_not_of(" \t"), last = line.find_last_not_of(" \t");
  const std::string_view word = first == std::string_view::npos ? std::string_view() : line.substr(first, last - first + 1);
  if (word.empty()) return press(Key::Next);  // Enter
  if (word.size() == 1)
    if (const auto k = key_of_char(word[0])) return *k;
  const std::string w = lower(word);
  if (w == "next" || w == "right") return press(Key::Next);
  if (w == "previous" || w == "prev" || w == "back" || w == "left") return press(Key::Previous);
  if (w == "first" || w == "home") return press(Key::First);
  if (w == "last" || w == "end") return press(Key::Last);
  if (w == "play" || w == "space") return press(Key::Play);
  if (w == "predict" || w == "quiz") return press(Key::Predict);
  if (w == "help") return press(Key::Help);
  if (w == "quit" || w == "exit") return press(Key::Quit);
  return press(Key::Other, std::string(word));
}

KeyReader::KeyReader(int fd) : fd_(fd) {
  if (!::isatty(fd_) || ::tcgetattr(fd_, &saved_) != 0) return;
  termios raw = saved_;
  // Keys as they are pressed, not echoed; Ctrl+C and Ctrl+D arrive as keys (quit), so the terminal
  // always gets its settings back here. Output processing stays: "\n" still starts a line.
  raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO | ISIG | IEXTEN));
  raw.c_iflag &= static_cast<tcflag_t>(~(IXON | ICRNL));
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  raw_ = ::tcsetattr(fd_, TCSANOW, &raw) == 0;  // keys typed ahead stay
}

KeyReader::~KeyReader() {
  if (raw_) ::tcsetattr(fd_, TCSAFLUSH, &saved_);
}

std::optional<char> KeyReader::byte(int timeout_ms) {
  if (pending_.empty()) {
    if (ended_) return std::nullopt;
    if (timeout_ms >= 0) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) return std::nullopt;
    }
    char buffer[256];
    ssize_t got = -1;
    do got = ::read(fd_, buffer, sizeof buffer);
    while (got < 0 && errno == EINTR);
    if (got <= 0) {
      ended_ = true;
      return std::nullopt;
    }
    pending_.assign(buffer, static_cast<std::size_t>(got));
  }
  const char c = pending_.front();
  pending_.erase(0, 1);
  return c;
}

std::optional<KeyPress> KeyReader::escape_sequence() {
  std::string tail;
  while (tail.size() < 4) {
    const auto c = byte(kEscapeWaitMs);
    if (!c) break;
    tail += *c;
    if (const auto k = key_of_sequence(tail)) return press(*k);
    if (std::isalpha(static_cast<unsigned char>(*c)) || *c == '~') break;  // a sequence's end we do not know
  }
  return press(Key::Other, "escape" + tail);
}

std::optional<KeyPress> KeyReader::next(int timeout_ms) {
  if (raw_) {
    const auto c = byte(timeout_ms);
    if (!c) return std::nullopt;
    if (*c == '\x1b') return escape_sequence();
    if (const auto k = key_of_char(*c)) return *k;
    return press(Key::Other, std::string(1, *c));
  }
  if (timeout_ms >= 0) return std::nullopt;  // a pipe's next line is the next key, not an interruption
  std::string line;
  for (;;) {
    const auto c = byte(-1);
    if (!c) {
      if (line.empty()) return std::nullopt;
      break;  // a last line without its newline still counts
    }
    if (*c == '\n') break;
    line += *c;
  }
  return key_of_line(line);
}

}  // namespace sv
