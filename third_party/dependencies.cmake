# Finds the system (Debian) packages scanviz builds on (included from the top level so the imported
# targets are visible everywhere). No third-party code lives in this tree.
if(EMSCRIPTEN)
  include("${CMAKE_CURRENT_LIST_DIR}/web.cmake")
  return()
endif()
set(SCANVIZ_DEPS_DIR "" CACHE PATH "Headers and libraries gathered by scripts/device-deps.sh, instead of packages")
if(SCANVIZ_DEPS_DIR)
  # A machine without the Debian packages (the GPU machine): the same libraries, carried.
  add_library(Boost::context STATIC IMPORTED)
  set_target_properties(Boost::context PROPERTIES IMPORTED_LOCATION "${SCANVIZ_DEPS_DIR}/lib/libboost_context.a"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${SCANVIZ_DEPS_DIR}/include")
  foreach(target nlohmann_json::nlohmann_json CLI11::CLI11 doctest::doctest scanviz_tomlplusplus)
    add_library(${target} INTERFACE IMPORTED)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SCANVIZ_DEPS_DIR}/include")
  endforeach()
  set(doctest_DIR "${SCANVIZ_DEPS_DIR}/cmake")
else()
  find_package(Boost 1.74 REQUIRED COMPONENTS context)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(CLI11 REQUIRED)
  # toml++ (TOML rubrics), header-only: Debian's CMake package links its shared library instead, which
  # a program carried to another machine would miss.
  find_path(SCANVIZ_TOMLPLUSPLUS_INCLUDE_DIR toml++/toml.h)
  if(NOT SCANVIZ_TOMLPLUSPLUS_INCLUDE_DIR)
    message(FATAL_ERROR "scanviz: toml++/toml.h not found (Debian: libtomlplusplus-dev)")
  endif()
  add_library(scanviz_tomlplusplus INTERFACE IMPORTED)
  set_target_properties(scanviz_tomlplusplus PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SCANVIZ_TOMLPLUSPLUS_INCLUDE_DIR}")
  if(SCANVIZ_TESTS)
    find_package(doctest REQUIRED)
  endif()
endif()

# The GUI: GLFW, Dear ImGui 1.86 (its GLFW and OpenGL3 backends are inside libimgui.a), stb (PNG
# writing; ImGui's font rasterizer), giflib (animated GIF export), zlib (a kernel in the page's links), OpenGL, and a GLAD loader generated at build time by Debian's
# python3-glad (--reproducible keeps it offline). Missing pieces turn the GUI off, with a message.
option(SCANVIZ_GUI "Build the GUI when its libraries are found" ON)
set(SCANVIZ_HAVE_GUI OFF)
if(SCANVIZ_GUI AND NOT SCANVIZ_DEPS_DIR)
  find_package(glfw3 3.3 QUIET)
  find_package(OpenGL QUIET COMPONENTS OpenGL)
  find_library(IMGUI_LIBRARY imgui)
  find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui)
  find_library(STB_LIBRARY stb)
  find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb)
  find_program(GLAD_EXECUTABLE glad)
  find_package(GIF QUIET)
  find_package(ZLIB QUIET)  # a kernel in a link (app/web/kernel_link.hpp): the page's, tested natively
  if(glfw3_FOUND AND OpenGL_FOUND AND IMGUI_LIBRARY AND IMGUI_INCLUDE_DIR AND STB_LIBRARY AND STB_INCLUDE_DIR
     AND GLAD_EXECUTABLE AND GIF_FOUND AND ZLIB_FOUND)
    set(SCANVIZ_HAVE_GUI ON)
    enable_language(C)  # the generated loader is C
    set(glad_dir "${CMAKE_BINARY_DIR}/glad")
    add_custom_command(
      OUTPUT "${glad_dir}/src/gl.c" "${glad_dir}/include/glad/gl.h"
      COMMAND "${GLAD_EXECUTABLE}" --quiet --api gl:core=3.3 --out-path "${glad_dir}" --reproducible c --loader
      COMMENT "Generating the OpenGL 3.3 core loader with glad"
      VERBATIM)
    add_library(glad STATIC "${glad_dir}/src/gl.c")
    target_include_directories(glad PUBLIC "${glad_dir}/include")
    target_link_libraries(glad PUBLIC ${CMAKE_DL_LIBS})
    add_library(imgui_system INTERFACE)
    target_include_directories(imgui_system INTERFACE "${IMGUI_INCLUDE_DIR}" "${IMGUI_INCLUDE_DIR}/backends"
                                                      "${STB_INCLUDE_DIR}")
    target_link_libraries(imgui_system INTERFACE "${IMGUI_LIBRARY}" "${STB_LIBRARY}" glfw OpenGL::GL GIF::GIF)
    message(STATUS "scanviz: GUI enabled (GLFW, Dear ImGui, OpenGL 3.3 via glad)")
  else()
    message(STATUS "scanviz: GUI libraries not found; building the command line only")
  endif()
endif()
