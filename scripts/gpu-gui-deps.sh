#!/usr/bin/env bash
# Gathers what the window needs on the lent GPU machine, which has no display and no Debian packages:
# Xvfb, Mesa (the X server's GLX needs its software driver), GLFW, libglvnd's GL loaders and the
# other shared libraries the scanviz binary links, as Debian 12 packages unpacked into one folder
# and packed as .gl/gui-root.tar.xz (the device tool carries 64 MiB at most). On the GPU machine,
# `scripts/gpu-check.sh gui` unpacks it under /tmp/gui-root and runs the window against NVIDIA's GLX
# (__GLX_VENDOR_LIBRARY_NAME=nvidia) with LD_LIBRARY_PATH pointing into it; nothing goes into /.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# The window's own libraries (ldd of a GUI build, less the C and C++ runtimes every Linux has), the
# X server, and the GL stack.
wanted=(xvfb xserver-common x11-xkb-utils xkb-data libglfw3 libgif7 libstb0 libx11-6 libxrandr2 libxinerama1
        libxcursor1 libxi6 libxxf86vm1 libgl1 libglx0 libglvnd0 libgl1-mesa-dri libglx-mesa0)
skip='^(gcc-12-base|libc6|libgcc-s1|libstdc\+\+6|libelogind0|lsb-base|sysvinit-utils|x11-common)$'
mapfile -t packages < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances "${wanted[@]}" | grep '^[a-z0-9]' | sort -u | grep -vE "$skip")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "${packages[@]}" >/dev/null)
mkdir -p "$work/root"
for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/root"; done
rm -rf "$work"/root/usr/share/{doc,man,locale,lintian,bug,info}
mkdir -p .gl
tar -C "$work/root" -cJf .gl/gui-root.tar.xz .
echo "gpu-gui-deps: ${#packages[@]} packages, $(du -sh .gl/gui-root.tar.xz | cut -f1) in .gl/gui-root.tar.xz"
