# Finds the system (Debian) packages scanviz builds on (included from the top level so the imported
# targets are visible everywhere). No third-party code lives in this tree.
set(SCANVIZ_DEPS_DIR "" CACHE PATH "Headers and libraries gathered by scripts/device-deps.sh, instead of packages")
if(SCANVIZ_DEPS_DIR)
  # A machine without the Debian packages (the GPU machine): the same libraries, carried.
  add_library(Boost::context STATIC IMPORTED)
  set_target_properties(Boost::context PROPERTIES IMPORTED_LOCATION "${SCANVIZ_DEPS_DIR}/lib/libboost_context.a"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${SCANVIZ_DEPS_DIR}/include")
  foreach(target nlohmann_json::nlohmann_json CLI11::CLI11 doctest::doctest)
    add_library(${target} INTERFACE IMPORTED)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SCANVIZ_DEPS_DIR}/include")
  endforeach()
  set(doctest_DIR "${SCANVIZ_DEPS_DIR}/cmake")
else()
  find_package(Boost 1.74 REQUIRED COMPONENTS context)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(CLI11 REQUIRED)
  if(SCANVIZ_TESTS)
    find_package(doctest REQUIRED)
  endif()
endif()
