#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs scanviz.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
scanviz_install_packages
scanviz_build
exec "$SCANVIZ_ROOT/build/release/app/scanviz" "$@"
