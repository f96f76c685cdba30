#!/usr/bin/env bash
# Window frame times: three scenes, 300 frames each, through `scanviz gui --report-frames`, as a table
# of CPU time (building the frame) and whole frame time (until the GL has drawn it), median and p99,
# with the GL renderer that drew them.
#   SCANVIZ_EXE   the scanviz binary (default: build/release, else build/dev, else build/nocuda)
#   FRAMES        frames per scene (default 300)
#   SIZE          the window's size (default 1600x900, the window's default)
# Without DISPLAY it runs under xvfb-run with Mesa's software renderer; on a display of the caller's the
# GL driver is the caller's (e.g. __GLX_VENDOR_LIBRARY_NAME=nvidia in the environment).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=window-common.sh
source "$root/scripts/window-common.sh" bench-frames
frames="${FRAMES:-300}"
size="${SIZE:-1600x900}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Saved settings (theme, font scale) would change what is drawn: each run starts from the defaults.
export XDG_CONFIG_HOME="$tmp/config"

scenes=(
  "n = 8 (default lesson)|"
  "kogge-stone-double-buffer n = 1024|--algo kogge-stone-double-buffer --n 1024"
  "look-back 10000-tiles|--lookback 10000-tiles"
)
echo "scanviz: $exe"
echo "window $size, $frames frames a scene; $(uptime | sed 's/.*load/load/')"
printf '%-36s %12s %12s %12s %12s  %s\n' scene "CPU median" "CPU p99" "frame median" "frame p99" renderer
for scene in "${scenes[@]}"; do
  name="${scene%%|*}"
  read -r -a args <<<"${scene#*|}"
  if ! "${run[@]}" "$exe" gui --frames "$frames" --size "$size" --report-frames "${args[@]}" >"$tmp/out" 2>"$tmp/err"; then
    echo "bench-frames: $name failed:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  # "frames N (...), CPU median A ms, p99 B ms; frame time median C ms, p99 D ms, ..." and "renderer R"
  read -r cpu_med cpu_p99 all_med all_p99 < <(sed -n 's/.*CPU median \([0-9.]*\) ms, p99 \([0-9.]*\) ms; frame time median \([0-9.]*\) ms, p99 \([0-9.]*\) ms.*/\1 \2 \3 \4/p' "$tmp/out")
  renderer="$(sed -n 's/^renderer //p' "$tmp/out")"
  printf '%-36s %9s ms %9s ms %9s ms %9s ms  %s\n' "$name" "$cpu_med" "$cpu_p99" "$all_med" "$all_p99" "$renderer"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
