#!/usr/bin/env bash
# Installs what is missing, builds (Release), builds the web page (scripts/web.sh, whose browser
# test runs with the others; SCANVIZ_WEB=0 leaves it out) and runs every test through ctest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
scanviz_install_packages
scanviz_build
if [ "${SCANVIZ_WEB:-1}" != 0 ]; then bash "$SCANVIZ_ROOT/scripts/web.sh"; fi
cd "$SCANVIZ_ROOT"
ctest --preset release "$@"
