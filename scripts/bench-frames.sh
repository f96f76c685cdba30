#!/usr/bin/env bash
# Window frame times: four scenes, 300 frames each, through `scanviz gui --report-frames`, as a table
# of CPU time (building the frame) and whole frame time (until the GL has drawn it), median, p99 and
# the slowest frame, with the GL renderer that drew them. The fourth scene drags n from 8 to 1024 on
# the lesson's slider at frame 23: the lesson is recorded again while the frames go on.
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

# The n slider's right end: 0.65 of the lesson panel (24% of the width, at most 22 em of 16 px) past
# its 8 px padding, on the row at y = 175 (font scale 1, the default these runs start from).
width="${size%x*}"
panel=$((width * 24 / 100 < 352 ? width * 24 / 100 : 352))
slider_end="click:$((8 + panel * 65 / 100 - 6)),175"

# name|arguments|scripted input (--keys)
scenes=(
  "n = 8 (default lesson)||"
  "kogge-stone-double-buffer n = 1024|--algo kogge-stone-double-buffer --n 1024|"
  "look-back 10000-tiles|--lookback 10000-tiles|"
  "n = 8 dragged to 1024 in the window|--algo kogge-stone-double-buffer|wait:20 $slider_end"
)
echo "scanviz: $exe"
echo "window $size, $frames frames a scene; $(uptime | sed 's/.*load/load/')"
printf '%-36s %12s %12s %12s %12s %12s %12s  %s\n' scene "CPU median" "CPU p99" "CPU max" "frame median" "frame p99" \
  "frame max" renderer
for scene in "${scenes[@]}"; do
  IFS='|' read -r name scene_args keys <<<"$scene"
  read -r -a args <<<"$scene_args"
  [ -z "$keys" ] || args+=(--keys "$keys")
  if ! "${run[@]}" "$exe" gui --frames "$frames" --size "$size" --report-frames "${args[@]}" >"$tmp/out" 2>"$tmp/err"; then
    echo "bench-frames: $name failed:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  # "frames N (...), CPU median A ms, p99 B ms, max C ms; frame time median D ms, p99 E ms, max F ms, ..."
  # and "renderer R"
  ms='\([0-9.]*\) ms'
  read -r cpu_med cpu_p99 cpu_max all_med all_p99 all_max < <(sed -n \
    "s/.*CPU median $ms, p99 $ms, max $ms; frame time median $ms, p99 $ms, max $ms.*/\1 \2 \3 \4 \5 \6/p" "$tmp/out")
  renderer="$(sed -n 's/^renderer //p' "$tmp/out")"
  printf '%-36s %9s ms %9s ms %9s ms %9s ms %9s ms %9s ms  %s\n' "$name" "$cpu_med" "$cpu_p99" "$cpu_max" "$all_med" \
    "$all_p99" "$all_max" "$renderer"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
