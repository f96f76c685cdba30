#!/usr/bin/env bash
# Emulator benchmark: records a trace as a whole process, 15 runs, and prints the median wall time
# and the median peak resident memory. Run after scripts/run.sh or scripts/test.sh has built;
# SCANVIZ_EXE picks another binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exe="${SCANVIZ_EXE:-$root/build/release/app/scanviz}"
[ -x "$exe" ] || { echo "bench-emulator: $exe is missing; build first (scripts/test.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-emulator: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
runs=15
printf '%-28s %6s %14s %16s %12s\n' algorithm n "median wall ms" "median peak MiB" "trace MiB"
for algo in kogge-stone-double-buffer brent-kung kogge-stone-racy; do
  n=1024
  : >"$tmp/samples"
  for _ in $(seq $runs); do
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$exe" trace --algo "$algo" --n $n --op sum --out "$tmp/t.json" >/dev/null
    # %e has only 10 ms resolution: take wall time from the shell clock instead.
    start=$(date +%s%N)
    "$exe" trace --algo "$algo" --n $n --op sum --out "$tmp/t.json" >/dev/null
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 )) $(awk '{print $2}' "$tmp/t")" >>"$tmp/samples"
  done
  wall=$(sort -n -k1 "$tmp/samples" | awk -v r=$runs 'NR==int((r+1)/2){printf "%.1f", $1/1000}')
  rss=$(sort -n -k2 "$tmp/samples" | awk -v r=$runs 'NR==int((r+1)/2){printf "%.1f", $2/1024}')
  size=$(stat -c %s "$tmp/t.json" | awk '{printf "%.1f", $1/1048576}')
  printf '%-28s %6s %14s %16s %12s\n' "$algo" $n "$wall" "$rss" "$size"
done
