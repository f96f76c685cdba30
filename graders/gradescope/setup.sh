#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (choose the Ubuntu 24.04
# base image). It installs what scanviz needs and builds the command line from the sources that
# make_autograder.sh put into the zip, or keeps the program the zip already holds (bin/scanviz).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -x "$here/bin/scanviz" ]; then
  echo "setup: using the scanviz the zip holds"
  exit 0
fi
if [ ! -f "$here/scanviz-src/CMakeLists.txt" ]; then
  echo "setup: no bin/scanviz and no scanviz-src/ beside setup.sh: make the zip with make_autograder.sh" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends build-essential cmake ninja-build libboost-context-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev
cmake -S "$here/scanviz-src" -B "$here/scanviz-build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCANVIZ_GUI=OFF -DSCANVIZ_CUDA=OFF -DSCANVIZ_TESTS=OFF
cmake --build "$here/scanviz-build" --target scanviz
install -D -m 755 "$here/scanviz-build/app/scanviz" "$here/bin/scanviz"
"$here/bin/scanviz" check --help > /dev/null
echo "setup: built $here/bin/scanviz"
