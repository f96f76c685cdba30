# Finds the system (Debian) packages scanviz builds on (included from the top level so the imported
# targets are visible everywhere). No third-party code lives in this tree.
find_package(Boost 1.74 REQUIRED COMPONENTS context)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
if(SCANVIZ_TESTS)
  find_package(doctest REQUIRED)
endif()
