/* The WebAssembly build's stand-in for the generated GLAD loader: WebGL 2 is OpenGL ES 3.0, whose
   functions Emscripten links directly, so there is nothing to load. */
#pragma once

#include <GLES3/gl3.h>

#define gladLoadGL(get_proc_address) 1
