# The WebAssembly build's dependencies (included by dependencies.cmake when the toolchain is
# Emscripten's; scripts/web.sh runs it). Dear ImGui and giflib are compiled from Debian's source
# packages (and zlib's), GLFW is Emscripten's own (-sUSE_GLFW=3), GL is WebGL 2, and the header-only libraries
# are the host's Debian headers, reached through links in the build folder so that no other host
# header is seen.
set(SCANVIZ_IMGUI_SOURCE_DIR "" CACHE PATH "Dear ImGui's sources (apt-get source imgui)")
if(NOT EXISTS "${SCANVIZ_IMGUI_SOURCE_DIR}/imgui.cpp" OR NOT EXISTS "${SCANVIZ_IMGUI_SOURCE_DIR}/backends/imgui_impl_glfw.cpp")
  message(FATAL_ERROR "scanviz web: SCANVIZ_IMGUI_SOURCE_DIR must name Dear ImGui's sources (scripts/web.sh fetches them)")
endif()
set(SCANVIZ_GIFLIB_SOURCE_DIR "" CACHE PATH "giflib's sources (apt-get source giflib)")
if(NOT EXISTS "${SCANVIZ_GIFLIB_SOURCE_DIR}/egif_lib.c" OR NOT EXISTS "${SCANVIZ_GIFLIB_SOURCE_DIR}/quantize.c")
  message(FATAL_ERROR "scanviz web: SCANVIZ_GIFLIB_SOURCE_DIR must name giflib's sources (scripts/web.sh fetches them)")
endif()

set(SCANVIZ_ZLIB_SOURCE_DIR "" CACHE PATH "zlib's sources (apt-get source zlib)")
if(NOT EXISTS "${SCANVIZ_ZLIB_SOURCE_DIR}/deflate.c" OR NOT EXISTS "${SCANVIZ_ZLIB_SOURCE_DIR}/inflate.c")
  message(FATAL_ERROR "scanviz web: SCANVIZ_ZLIB_SOURCE_DIR must name zlib's sources (scripts/web.sh fetches them)")
endif()

set(host_include "${CMAKE_BINARY_DIR}/host_include")
file(MAKE_DIRECTORY "${host_include}")
foreach(header nlohmann/json.hpp stb/stb_image_write.h toml++/toml.h)
  get_filename_component(dir_name "${header}" DIRECTORY)
  find_path(scanviz_${dir_name}_dir "${header}" PATHS /usr/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT scanviz_${dir_name}_dir)
    message(FATAL_ERROR "scanviz web: ${header} not found (Debian: nlohmann-json3-dev, libstb-dev, libtomlplusplus-dev)")
  endif()
  file(CREATE_LINK "${scanviz_${dir_name}_dir}/${dir_name}" "${host_include}/${dir_name}" SYMBOLIC)
endforeach()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${host_include}")
add_library(scanviz_tomlplusplus INTERFACE IMPORTED)  # TOML rubrics (app/grade/rubric_toml.cpp)
set_target_properties(scanviz_tomlplusplus PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${host_include}")
# The emulator's coroutines are Emscripten fibers here (kernels/emulator/coroutine_wasm.hpp).
add_library(Boost::context INTERFACE IMPORTED)

# C++ exceptions carry the emulator's and the lesson's errors: Emscripten catches none without this.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)

set(SCANVIZ_HAVE_GUI ON)
set(imgui "${SCANVIZ_IMGUI_SOURCE_DIR}")
add_library(imgui_system STATIC
  "${imgui}/imgui.cpp" "${imgui}/imgui_draw.cpp" "${imgui}/imgui_tables.cpp" "${imgui}/imgui_widgets.cpp"
  "${imgui}/backends/imgui_impl_glfw.cpp" "${imgui}/backends/imgui_impl_opengl3.cpp"
  "${PROJECT_SOURCE_DIR}/app/web/stb_image_write.cpp")
target_include_directories(imgui_system PUBLIC "${imgui}" "${imgui}/backends" "${host_include}/stb")
target_compile_options(imgui_system PUBLIC -sUSE_GLFW=3)
target_link_options(imgui_system PUBLIC -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
# giflib's encoder and quantizer, for the GIF export (gui/draw/render.cpp), from Debian's source package.
enable_language(C)
set(giflib "${SCANVIZ_GIFLIB_SOURCE_DIR}")
add_library(giflib STATIC "${giflib}/egif_lib.c" "${giflib}/gif_hash.c" "${giflib}/gifalloc.c" "${giflib}/gif_err.c"
                          "${giflib}/quantize.c" "${giflib}/openbsd-reallocarray.c")
target_include_directories(giflib PUBLIC "${giflib}")
target_link_libraries(imgui_system PUBLIC giflib)
# zlib's deflate and inflate, for a kernel in a link (app/web/kernel_link.cpp), from Debian's source package.
set(zlib "${SCANVIZ_ZLIB_SOURCE_DIR}")
add_library(zlib_web STATIC "${zlib}/adler32.c" "${zlib}/crc32.c" "${zlib}/deflate.c" "${zlib}/inflate.c" "${zlib}/inftrees.c"
                            "${zlib}/inffast.c" "${zlib}/trees.c" "${zlib}/zutil.c")
target_include_directories(zlib_web PUBLIC "${zlib}")
add_library(ZLIB::ZLIB ALIAS zlib_web)
# <glad/gl.h> is WebGL 2's header here (app/web/include/glad/gl.h).
add_library(glad INTERFACE)
target_include_directories(glad INTERFACE "${PROJECT_SOURCE_DIR}/app/web/include")
message(STATUS "scanviz: web build (WebAssembly, WebGL 2, Dear ImGui from ${imgui})")
