// Scripted input through the GLFW backend's callbacks (imgui_impl_glfw): the path real keys take.
#include "gui/platform/input_script.hpp"

// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <vector>

#include "core/charconv.hpp"
#include "gui/platform/dropped_files.hpp"

namespace sv::gui {

namespace {

const std::map<std::string_view, int>& named_keys() {
  static const std::map<std::string_view, int> keys = {
      {"enter", GLFW_KEY_ENTER}, {"tab", GLFW_KEY_TAB},     {"escape", GLFW_KEY_ESCAPE}, {"backspace", GLFW_KEY_BACKSPACE},
      {"left", GLFW_KEY_LEFT},   {"right", GLFW_KEY_RIGHT}, {"up", GLFW_KEY_UP},         {"down", GLFW_KEY_DOWN},
      {"home", GLFW_KEY_HOME},   {"end", GLFW_KEY_END},     {"space", GLFW_KEY_SPACE},   {"pageup", GLFW_KEY_PAGE_UP},
      {"pagedown", GLFW_KEY_PAGE_DOWN}};
  return keys;
}

bool parse_number(std::string_view s, float& out) {
  const auto [end, ec] = sv::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

ScriptedInput parse_token(std::string_view token) {
  ScriptedInput in;
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("--keys: '" + std::string(token) + "' " + why);
  };
  if (token.rfind("text:", 0) == 0) {
    in.kind = ScriptedInput::Text;
    in.text = token.substr(5);
    if (in.text.empty()) throw bad("types nothing");
  } else if (token.rfind("click:", 0) == 0) {
    in.kind = ScriptedInput::Click;
    const std::string_view xy = token.substr(6);
    const auto comma = xy.find(',');
    if (comma == std::string_view::npos || !parse_number(xy.substr(0, comma), in.x) || !parse_number(xy.substr(comma + 1), in.y))
      throw bad("is not click:X,Y");
  } else if (token.rfind("drop:", 0) == 0 || token.rfind("clip:", 0) == 0) {
    in.kind = token[0] == 'd' ? ScriptedInput::Drop : ScriptedInput::Clip;
    in.text = token.substr(5);
    if (in.text.empty()) throw bad("names no file");
  } else if (token.rfind("wait:", 0) == 0) {
    in.kind = ScriptedInput::Wait;
    float frames = 0;
    if (!parse_number(token.substr(5), frames) || frames < 1 || frames > 10000) throw bad("is not wait:N with N from 1 to 10000");
    in.frames = static_cast<int>(frames);
  } else if (token.rfind("save:", 0) == 0) {
    in.kind = ScriptedInput::Save;
    const std::string_view paths = token.substr(5);
    const auto comma = paths.find(',');
    if (comma == std::string_view::npos || comma == 0 || comma + 1 == paths.size()) throw bad("is not save:FROM,TO");
    in.from = paths.substr(0, comma);
    in.text = paths.substr(comma + 1);
  } else if (token == "shift+tab") {
    in.key = GLFW_KEY_TAB;
    in.shift = true;
  } else if (token == "ctrl+enter") {
    in.key = GLFW_KEY_ENTER;
    in.ctrl = true;
  } else if (token.size() == 6 && token.rfind("ctrl+", 0) == 0 && std::isalpha(static_cast<unsigned char>(token[5]))) {
    in.key = std::toupper(static_cast<unsigned char>(token[5]));
    in.ctrl = true;
  } else if (auto named = named_keys().find(token); named != named_keys().end()) {
    in.key = named->second;
  } else if (token.size() == 1 && std::isalnum(static_cast<unsigned char>(token[0]))) {
    in.key = std::toupper(static_cast<unsigned char>(token[0]));  // GLFW's codes for A-Z and 0-9 are ASCII
    in.text = std::string(token);
  } else {
    throw bad("is not a key (a letter, a digit, enter, ctrl+enter, ctrl+LETTER, tab, shift+tab, escape, backspace, arrows, "
              "home, end, space), text:CHARS, click:X,Y, drop:PATH, save:FROM,TO, clip:PATH or wait:N");
  }
  return in;
}

}  // namespace

std::vector<ScriptedInput> parse_input_script(std::string_view script) {
  std::vector<ScriptedInput> out;
  std::size_t at = 0;
  while (at < script.size()) {
    const std::size_t start = script.find_first_not_of(" \t\n", at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(script.find_first_of(" \t\n", start), script.size());
    out.push_back(parse_token(script.substr(start, end - start)));
    at = end;
  }
  return out;
}

bool feed_input_script(const std::vector<ScriptedInput>& script, int frame, GLFWwindow* window, float& mouse_x,
                       float& mouse_y, int start) {
  bool saved = false;
  int begins = start;
  for (const ScriptedInput& in : script) {
    const bool press = frame == begins, release = frame == begins + 1;
    begins += in.frames;
    if (!press && !release) continue;
    const int action = press ? GLFW_PRESS : GLFW_RELEASE;
    switch (in.kind) {
      case ScriptedInput::Key:
        if (in.shift) ImGui_ImplGlfw_KeyCallback(window, GLFW_KEY_LEFT_SHIFT, 0, action, 0);
        if (in.ctrl) ImGui_ImplGlfw_KeyCallback(window, GLFW_KEY_LEFT_CONTROL, 0, action, 0);
        ImGui_ImplGlfw_KeyCallback(window, in.key, 0, action, (in.shift ? GLFW_MOD_SHIFT : 0) | (in.ctrl ? GLFW_MOD_CONTROL : 0));
        if (press)
          for (char c : in.text) ImGui_ImplGlfw_CharCallback(window, static_cast<unsigned char>(c));
        break;
      case ScriptedInput::Text:
        if (press)
          for (char c : in.text) ImGui_ImplGlfw_CharCallback(window, static_cast<unsigned char>(c));
        break;
      case ScriptedInput::Click:
        mouse_x = in.x;
        mouse_y = in.y;
        ImGui_ImplGlfw_MouseButtonCallback(window, GLFW_MOUSE_BUTTON_LEFT, action, 0);
        break;
      case ScriptedInput::Drop:
        if (press) {  // drop:A,B,C: several files in one drop, as a file manager's selection arrives
          std::vector<std::string> paths;
          for (std::size_t at = 0; at <= in.text.size();) {
            const std::size_t comma = std::min(in.text.find(',', at), in.text.size());
            paths.push_back(in.text.substr(at, comma - at));
            at = comma + 1;
          }
          std::vector<const char*> names;
          for (const std::string& p : paths) names.push_back(p.c_str());
          on_drop(window, static_cast<int>(names.size()), names.data());
        }
        break;
      case ScriptedInput::Save:
        if (press) {
          std::error_code error;  // a test's own files: one it got wrong shows as the change not seen
          std::filesystem::copy_file(in.from, in.text, std::filesystem::copy_options::overwrite_existing, error);
          saved = true;
        }
        break;
      case ScriptedInput::Clip:
        if (press) {
          std::ifstream file(in.text, std::ios::binary);
          const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
          glfwSetClipboardString(window, text.c_str());
        }
        break;
      case ScriptedInput::Wait: break;
    }
  }
  return saved;
}

}  // namespace sv::gui
