#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs scanviz. With arguments, runs `scanviz ARGS`.
# Without arguments it opens the window; on a machine with no display it renders the default lesson
# (Kogge-Stone on the slides' input, and the race of the single-buffer kernel) to PNG and SVG files
# under Xvfb instead, and says where they are.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
scanviz_install_packages
scanviz_build
exe="$SCANVIZ_ROOT/build/release/app/scanviz"
if [ $# -gt 0 ] || [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$exe" "$@"
fi
lesson="$SCANVIZ_ROOT/build/lesson"
export LIBGL_ALWAYS_SOFTWARE=1  # Xvfb has only Mesa's software renderer; Mesa 24 would probe for a GPU first
rm -rf "$lesson"
mkdir -p "$lesson"
echo "scanviz: no display here; rendering the default lesson to files instead"
"$exe" trace --algo kogge-stone-double-buffer --op interval --executor emulator --out "$lesson/kogge-stone.json"
"$exe" trace --algo kogge-stone-racy --n 64 --op interval --schedule in-order --out "$lesson/kogge-stone-racy.json"
"$exe" show "$lesson/kogge-stone.json"
for step in 0 1 2 3 4; do
  "$exe" render "$lesson/kogge-stone.json" --step "$step" --out "$lesson/kogge-stone-step$step.svg" >/dev/null
  xvfb-run -a -s "-screen 0 1920x1080x24" "$exe" render "$lesson/kogge-stone.json" --step "$step" \
    --out "$lesson/kogge-stone-step$step.png" >/dev/null
done
xvfb-run -a -s "-screen 0 1920x1080x24" "$exe" render "$lesson/kogge-stone-racy.json" --step 1 \
  --out "$lesson/kogge-stone-racy-step1.png" >/dev/null
xvfb-run -a -s "-screen 0 1920x1080x24" "$exe" gui --frames 3 --step 2 --screenshot "$lesson/window.png" >/dev/null
echo
echo "scanviz: the lesson is in $lesson:"
ls -1 "$lesson"
echo "(open the .png or .svg files; on a machine with a display, scripts/run.sh opens the window)"
