#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs every test through ctest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
scanviz_install_packages
scanviz_build
cd "$SCANVIZ_ROOT"
ctest --preset release "$@"
