# Sourced by the scripts that run the window (bench-frames.sh, screenshots.sh), with the script's name
# as the argument: sets `exe`, the scanviz binary (SCANVIZ_EXE, else build/release, build/dev or
# build/nocuda, the first built), and `run`, the command to run it under: xvfb-run where there is
# no DISPLAY, else nothing. Exits 2 with a message when either is missing.
window_script="$1"
exe="${SCANVIZ_EXE:-}"
if [ -z "$exe" ]; then
  for candidate in "$root/build/release/app/scanviz" "$root/build/dev/app/scanviz" "$root/build/nocuda/app/scanviz"; do
    if [ -x "$candidate" ]; then exe="$candidate"; break; fi
  done
fi
[ -n "$exe" ] && [ -x "$exe" ] || { echo "$window_script: no scanviz binary (build first, or set SCANVIZ_EXE)" >&2; exit 2; }
run=()
if [ -z "${DISPLAY:-}" ]; then
  command -v xvfb-run >/dev/null || { echo "$window_script: no DISPLAY and no xvfb-run (apt-get install xvfb xauth)" >&2; exit 2; }
  run=(env LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1920x1080x24")  # Xvfb: Mesa's software renderer only
fi
