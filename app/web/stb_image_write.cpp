// stb_image_write's code (PNG encoding): Debian ships it compiled for the host only, so the
// WebAssembly build compiles it from the packaged header.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
