#!/usr/bin/env bash
# Regenerates every picture the README shows, as PNG and GIF files under docs/img/, each drawn by scanviz
# itself (the window: `scanviz gui --frames N --screenshot`; the diagram: `scanviz render`) at a modest
# size with the light theme and the default settings, under xvfb-run when there is no DISPLAY.
#   scripts/screenshots.sh              every shot
#   scripts/screenshots.sh NAME...      only these (the names below, e.g. predict_answered)
#   SCANVIZ_EXE   the scanviz binary (default: build/release, else build/dev, else build/nocuda)
#   SIZE          the window's size (default 1280x720)
#   OUT           where the PNG files go (default docs/img)
# Each shot is one function, shot_NAME, listed in SHOTS; a shot that must show an outcome (a graded
# answer) checks the program's output and fails when it differs. The total of the PNG and GIF files must
# stay under MAX_BYTES (default 2.2 MB) so the repository stays small.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=window-common.sh
source "$root/scripts/window-common.sh" screenshots
size="${SIZE:-1280x720}"
out="${OUT:-$root/docs/img}"
max_bytes="${MAX_BYTES:-2200000}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Saved settings (theme, font scale) would change what is drawn: each shot starts from the defaults.
export XDG_CONFIG_HOME="$tmp/config"

# shot FILE ARGS...: the window after a few frames, saved as $out/FILE.png; the program's output is
# left in $tmp/log. The pointer is held over the lesson panel's empty lower part, so nothing shows hovered.
shot() {
  local file="$1"
  shift
  if ! "${run[@]}" "$exe" gui --frames 40 --size "$size" --theme light --mouse 150,650 "$@" \
    --screenshot "$out/$file.png" >"$tmp/log" 2>&1; then
    echo "screenshots: $file failed:" >&2
    cat "$tmp/log" >&2
    exit 1
  fi
  echo "$file.png  $(wc -c <"$out/$file.png") bytes  (gui $*)"
}

# expect TEXT: the last shot's output holds TEXT (what its caption in the README says happened).
expect() {
  grep -qF -- "$1" "$tmp/log" || { echo "screenshots: expected '$1' in the output of the last shot, got:" >&2; cat "$tmp/log" >&2; exit 1; }
}

# ============================================================================================
# Lessons: divergence, operators, predict mode, warp-level scans, segmented scan, applications
# ============================================================================================

# Warp divergence: Kogge-Stone at n = 128 (4 warps), stride 16: warp 0 diverges.
shot_divergence_kogge_stone() { shot divergence-kogge-stone --algo kogge-stone --n 128 --step 5 --divergence; }

# Warp divergence: Brent-Kung at n = 128 (64 threads, 2 warps), reduction stride 32: warp 0 diverges,
# warp 1 idles whole.
shot_divergence_brent_kung() { shot divergence-brent-kung --algo brent-kung --n 128 --step 6 --divergence; }

# A bitwise operator: Kogge-Stone (double-buffered) over the slides' input with bitor, at stride 2.
shot_operator_bitor() { shot operator-bitor --algo kogge-stone-double-buffer --op bitor --n 8 --step 2; }

# Predict the next step: the default lesson's first question, nothing answered yet.
shot_predict_question() { shot predict-question --predict; }

# Predict the next step: answer 1 to both questions of step 1, the first right and the second wrong.
shot_predict_answered() {
  shot predict-answered --predict --keys "1 1 enter"
  expect "predict: step 1 ?1 right, score 1/2"
  expect "predict: step 1 ?2 wrong, score 1/2"
}

# Warp-level block scans: Fig. 2a (warp-brent-kung) at the figure's n = 16 and warps of 4, the fan
# step. Drawn by `scanviz render` (the window's drawing code, fitted to the diagram): in a 1280-pixel
# window the 16 ranges would not fit their cells.
shot_warp_block_scan() {
  if ! { "${run[@]}" "$exe" trace --algo warp-brent-kung --n 16 --warp 4 --op interval --executor emulator --out "$tmp/w.json" &&
    "${run[@]}" "$exe" render "$tmp/w.json" --step 5 --theme light --out "$out/warp-brent-kung.png"; } >"$tmp/log" 2>&1; then
    echo "screenshots: warp-brent-kung failed:" >&2
    cat "$tmp/log" >&2
    exit 1
  fi
  expect "outcome correct"
  echo "warp-brent-kung.png  $(wc -c <"$out/warp-brent-kung.png") bytes  (trace --algo warp-brent-kung --n 16 --warp 4, render --step 5)"
}

# trace_then_shot FILE TRACE_ARGS...: records a trace with `scanviz trace` (on the emulator; its outcome
# must be correct), then the window showing it with the arguments in shot_args (what `scanviz gui
# --trace` opens: the diagram and, for an application, its window).
trace_then_shot() {
  local file="$1"
  shift
  "$exe" trace --executor emulator "$@" --out "$tmp/$file.json" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
  expect "outcome correct"
  shot "$file" --trace "$tmp/$file.json" "${shot_args[@]}"
}

# Segmented scan: Sklansky over x0..x7 with heads at 0, 3 and 5, at span 2: no value crosses a bar.
shot_segmented_scan() {
  shot_args=(--step 2)
  trace_then_shot segmented-scan --algo sklansky --op interval --n 8 --flags 1,0,0,1,0,1,0,0
}

# Stream compaction: Kogge-Stone's exclusive sum of x > 0 over 16 seeded values, and the scatter.
shot_stream_compaction() {
  shot_args=()
  trace_then_shot stream-compaction --algo kogge-stone --app compact --predicate "x > 0" --n 16 --seed 3
}

# Allocation: the slides' requests 8 6 7 5 3 0 9 get the offsets 0 8 14 21 26 29 29 (Brent-Kung).
shot_allocation() {
  shot_args=()
  trace_then_shot allocation --algo brent-kung --app allocate --input 8,6,7,5,3,0,9
}

# ============================================================================================
# The README's first screen and its "Teach this" table
# ============================================================================================

# The race, side by side: the double-buffered Kogge-Stone (the lesson, no hazards) over the
# single-buffer kernel on the same 40 values, at stride 4: warp 1 read cells of warp 0 that warp 0 had
# already overwritten (red).
shot_race_side_by_side() { shot race-side-by-side --algo kogge-stone-double-buffer --n 40 --warp 32 --side-by-side --step 3; }

# The look-back view at Merrill and Garland's Fig. 6: eight tiles whose aggregates are 2, tile 3 selected
# with its look-back over tiles 2, 1 and 0.
shot_lookback_fig6() { shot lookback-fig6 --lookback fig6; }

# The race as an animated GIF, every step of the single-buffer kernel on forty 1s (the right answer is
# 1 2 3 ... 40, so the wrong cells are easy to see), drawn by `scanviz render`.
shot_race_gif() {
  printf '1\n%.0s' $(seq 40) >"$tmp/ones.txt"
  if ! { "$exe" trace --algo kogge-stone-racy --input @"$tmp/ones.txt" --schedule in-order --out "$tmp/race.json" &&
    "${run[@]}" "$exe" render "$tmp/race.json" --out "$out/race-kogge-stone.gif" --delay 120; } >"$tmp/log" 2>&1; then
    echo "screenshots: race-kogge-stone failed:" >&2
    cat "$tmp/log" >&2
    exit 1
  fi
  expect "outcome wrong"
  echo "race-kogge-stone.gif  $(wc -c <"$out/race-kogge-stone.gif") bytes  (trace --algo kogge-stone-racy --input @ones.txt --schedule in-order, render --out race-kogge-stone.gif --delay 120)"
}

# ============================================================================================
# A lesson to add: a function per shot above and its name in SHOTS.
# ============================================================================================

SHOTS=(
  divergence_kogge_stone
  divergence_brent_kung
  operator_bitor
  predict_question
  predict_answered
  warp_block_scan
  segmented_scan
  stream_compaction
  allocation
  race_side_by_side
  lookback_fig6
  race_gif
)

if [ $# -gt 0 ]; then chosen=("$@"); else chosen=("${SHOTS[@]}"); fi
for name in "${chosen[@]}"; do
  declare -F "shot_$name" >/dev/null || { echo "screenshots: no shot named '$name' (${SHOTS[*]})" >&2; exit 2; }
done
echo "scanviz: $exe, window $size, into $out"
for name in "${chosen[@]}"; do "shot_$name"; done

total=0
for f in "$out"/*.png "$out"/*.gif; do [ -f "$f" ] && total=$((total + $(wc -c <"$f"))); done
echo "total $total bytes in $out"
if [ "$total" -gt "$max_bytes" ]; then
  echo "screenshots: $total bytes is over $max_bytes: use a smaller SIZE or fewer shots" >&2
  exit 1
fi
