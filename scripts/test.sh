#!/usr/bin/env bash
# Installs what is missing, builds (Release), builds the web page (scripts/web.sh, whose browser
# test runs with the others; SCANVIZ_WEB=0 leaves it out) and runs every test through ctest, then
# the kernel fuzz test under ASan and UBSan (SCANVIZ_ASAN=0 leaves it out).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
scanviz_install_packages
scanviz_build
if [ "${SCANVIZ_WEB:-1}" != 0 ]; then bash "$SCANVIZ_ROOT/scripts/web.sh"; fi
cd "$SCANVIZ_ROOT"
ctest --preset release "$@"
# A student's kernel is untrusted input: on a whole run, the kernel fuzz test again under
# AddressSanitizer and UBSan (the asan preset, clang). SCANVIZ_ASAN=0 leaves it out.
if [ $# -eq 0 ] && [ "${SCANVIZ_ASAN:-1}" != 0 ]; then
  scanviz_install_asan_packages
  cmake --preset asan
  cmake --build --preset asan -j "$(nproc)" --target scanviz_kernel_fuzz_tests
  ctest --test-dir build/asan -L fuzz -R kernel --output-on-failure
fi
