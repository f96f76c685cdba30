// The browser side of app/web/clipboard.hpp.
#include "web/clipboard.hpp"

#include <emscripten.h>
#include <imgui.h>

// Text pasted anywhere on the page but the link box (index.html's, which pastes as any text field)
// is kept for the window, and the browser's own paste stopped. Module.pastes counts them, for tests.
EM_JS(void, scanviz_listen_for_paste, (), {
  document.addEventListener('paste', function(event) {
    if (event.target && event.target.id == 'link') return;
    var text = event.clipboardData ? event.clipboardData.getData('text/plain') : '';
    event.preventDefault();
    if (!text) return;
    Module.pasted = (Module.pasted || '') + text;
    Module.pastes = (Module.pastes || 0) + 1;
  }, true);
});
// The pasted text's length in UTF-8 bytes, then the text itself into the caller's buffer of `size`
// bytes (with its terminating zero), which empties the queue.
EM_JS(int, scanviz_pasted_bytes, (), { return lengthBytesUTF8(Module.pasted || ''); });
EM_JS(void, scanviz_take_paste, (char* out, int size), {
  stringToUTF8(Module.pasted || '', out, size);
  Module.pasted = '';
});
// Module.copiedText keeps the last copy, for tests; a browser that refuses the clipboard (no
// permission, the page not focused) leaves the clipboard as it was.
EM_JS(void, scanviz_copy_text, (const char* text), {
  var copied = UTF8ToString(text);
  Module.copiedText = copied;
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(copied).catch(function() {});
});

namespace sv::web {

void use_browser_clipboard() {
  scanviz_listen_for_paste();
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = [](void*, const char* text) { scanviz_copy_text(text); };
  io.GetClipboardTextFn = [](void*) -> const char* { return ""; };
}

std::string take_browser_paste() {
  const int bytes = scanviz_pasted_bytes();
  if (bytes == 0) return {};
  std::string text(static_cast<std::size_t>(bytes) + 1, '\0');
  scanviz_take_paste(text.data(), bytes + 1);
  text.resize(static_cast<std::size_t>(bytes));
  return text;
}

}  // namespace sv::web
