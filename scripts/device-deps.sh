#!/usr/bin/env bash
# Gathers what building scanviz needs from Debian's packages into .deps/, for a machine that cannot
# install them (the lent GPU machine): the headers the sources actually include (found with g++ -M),
# Boost.Context's static library and doctest's CMake test discovery. Configure there with
#   cmake -DSCANVIZ_DEPS_DIR=$PWD/.deps ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rm -rf .deps
mkdir -p .deps/include .deps/lib .deps/cmake
sources=$(git ls-files 'kernels/*.cpp' 'app/*.cpp' 'tests/*.cpp')
headers=$(for f in $sources; do g++ -std=c++20 -Ikernels -Iapp -Itests -DSCANVIZ_EXE='""' -DSCANVIZ_SOURCE_DIR='""' -M "$f"; done |
  tr ' \\' '\n\n' | grep -E '^/usr/include/(boost|nlohmann|CLI|doctest|toml\+\+)/' | sort -u)
for h in $headers; do
  dest=".deps/include/${h#/usr/include/}"
  mkdir -p "$(dirname "$dest")"
  cp "$h" "$dest"
done
cp /usr/lib/x86_64-linux-gnu/libboost_context.a .deps/lib/
cp /usr/lib/cmake/doctest/doctest.cmake /usr/lib/cmake/doctest/doctestAddTests.cmake .deps/cmake/
echo "device-deps: $(echo "$headers" | wc -l) headers, $(du -sh .deps | cut -f1) in .deps"
