// The Asyncify imports of emulator/coroutine_wasm.cpp, made known to Emscripten's linker. Binaryen's
// Asyncify pass replaces every call to them with its own functions, so these are never called.
mergeInto(LibraryManager.library, {
  start_unwind: function() { abort('asyncify.start_unwind was not replaced: link with -sASYNCIFY'); },
  stop_unwind: function() { abort('asyncify.stop_unwind was not replaced: link with -sASYNCIFY'); },
  start_rewind: function() { abort('asyncify.start_rewind was not replaced: link with -sASYNCIFY'); },
  stop_rewind: function() { abort('asyncify.stop_rewind was not replaced: link with -sASYNCIFY'); },
});
