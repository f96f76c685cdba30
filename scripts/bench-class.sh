#!/usr/bin/env bash
# Class benchmark (docs/performance.md): grades N submissions (default 200) of 1024-thread scan kernels
# in one `scanviz check FOLDER --jobs J` (default 2) and prints the wall time, the CPU time and the
# verdicts. The submissions are the planted kernels of tests/kernels/ in turn (one in three correct, the
# others with one bug each), every one run by the rubric's launch in blocks of 1024 threads. Run after
# scripts/run.sh or scripts/test.sh has built; SCANVIZ_EXE picks another binary.
#   scripts/bench-class.sh [N] [JOBS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exe="${SCANVIZ_EXE:-$root/build/release/app/scanviz}"
count="${1:-200}"
jobs="${2:-2}"
[ -x "$exe" ] || { echo "bench-class: $exe is missing; build first (scripts/test.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-class: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/class"
kernels=(correct_kogge_stone missing_barrier off_by_one_load correct_kogge_stone powers_of_two_only store_off_by_one
         correct_kogge_stone uninitialized_local early_return barrier_in_branch endless_loop brent_kung_missing_barrier)
for i in $(seq 0 $((count - 1))); do
  k="${kernels[$((i % ${#kernels[@]}))]}"
  { echo "// submission $i"; cat "$root/tests/kernels/$k.cu"; } > "$tmp/class/$(printf 's%03d' "$i")_$k.cu"
done
cat > "$tmp/rubric.json" <<'JSON'
{"title": "1024 threads a block", "scan": "inclusive",
 "launches": ["scan<<<(n + 1023) / 1024, 1024>>>(in, out, n)"],
 "items": [{"id": "correct", "check": "outputs", "points": 5}, {"id": "race-free", "check": "no-races", "points": 3},
           {"id": "fault-free", "check": "no-faults", "points": 2}]}
JSON
/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$exe" check "$tmp/class" --rubric "$tmp/rubric.json" --jobs "$jobs" --summary "$tmp/table.csv" > /dev/null
read -r wall user sys rss < "$tmp/time"
verdicts=$(awk -F, 'NR > 1 && $0 == "" {exit} NR > 1 {print $2}' "$tmp/table.csv" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}')
slowest=$(awk -F, 'NR > 1 && $0 == "" {exit} NR > 1 {print $NF}' "$tmp/table.csv" | sort -g | tail -1)
echo "bench-class: $count submissions, --jobs $jobs, $(nproc) cores: ${wall} s wall, ${user} s user, ${sys} s system (children included), slowest submission ${slowest} s; ${verdicts}"
