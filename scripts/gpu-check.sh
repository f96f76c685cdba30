#!/usr/bin/env bash
# Runs on a machine with a CUDA GPU: the GPU test suites, the racy kernel's hazards from the GPU trace
# next to compute-sanitizer racecheck, the race amplifier's wrong-output rates, memcheck, synccheck
# and racecheck on every race-free kernel (traced and untraced), and a SASS check that the untraced
# kernels carry no trace code. Logs go to $OUT (or ./gpu-check).
#
# Parts to run may be named (default: tests racy amplifier sanitizers sass):
#   gui                the window under carried Xvfb with NVIDIA's OpenGL: screenshots of the GPU
#                      lesson, the amplified race, the timing panel measuring, a GPU trace's look-back
#                      view, and frame times (300 frames) of three scenes
#   arches             builds for compute_75 PTX (the pre-sm_80 code, compiled by the driver) and for
#                      another GPU; runs the GPU tests on the first and checks the second's refusals
#   tests              every GPU test case (scanviz_gpu_tests)
#   device             the device-wide scans: their GPU tests (unless `tests` runs too), scanviz bench
#                      (default sizes, table and JSON) and the tile kernels' SASS
#   device-sanitizers  compute-sanitizer memcheck, racecheck and synccheck on the small-n device tests
#                      and the one-wave 8-byte tests, and memcheck on bench (its single launches and
#                      graphs) at 2^16 and 2^22
#   small              small and mid n (SCANVIZ_SMALL_SIZES, default 2^12..2^22) for each type in
#                      SCANVIZ_SMALL_TYPES (default int32,int64): decoupled look-back's default, its gather
#                      kernel in every shape with each shape's tiles alone and ordering floor, the
#                      default's tiles alone (and held late), the tile kernel at every n, the empty
#                      kernel (the launch floor) and a copy kernel, the copy and CUB, both measures
#                      (SCANVIZ_SMALL_POLICIES: other rows);
#                      the gather kernels' registers
#   policies           decoupled look-back under the other tile policies at 2^24..2^28, twice (the
#                      run-to-run spread of one binary)
#   sweep              scanviz bench of decoupled look-back against CUB and the copy at every power of two
#                      from 2^16 to 2^30 (SCANVIZ_SWEEP_SIZES: others), both measures in 3 rounds each
#                      (SCANVIZ_BENCH_ROUNDS: other counts; the spread), once (SCANVIZ_SWEEP_ROUNDS: more
#                      processes, one after the other), for each type in SCANVIZ_SWEEP_TYPES (default
#                      int32); tables and JSON, and scripts/bench-table.py's tables of them
#   profile            Nsight Compute on decoupled look-back's kernel (default policy) and CUB's at 2^28
#                      (SCANVIZ_PROFILE_FULL=1: --set full, the reports and per-SASS stall samples)
#                      (SCANVIZ_PROFILE_SIZES=2^22,2^28: those sizes)
#   candidates         the tile-policy tests (descriptors under epochs or a memset a run), registers and
#                      spills of decoupled look-back's int32 kernels, and every policy at 2^16..2^30
#                      (SCANVIZ_CANDIDATE_TYPES=int32,int64: the int64 policies too)
#   nsys               Nsight Systems timeline of bench at 2^16, 2^22 and 2^28 (kernels, memsets, gaps)
#   timing             wall-clock of the GUI timing panel's worker: bench of decoupled look-back alone
#                      at 2^24 and 2^28, 20 runs
#   corpus             the whole-file corpus (tests/fixtures/whole_files) as written: each file's own main
#                      compiled by nvcc and run, and under memcheck, racecheck, synccheck and initcheck
#                      (SCANVIZ_CORPUS_FILES=a.cu,b.cu: those files only)
#   racy amplifier sanitizers sass   the block-level kernels' races, amplifier and sanitizers
# Logs go to $OUT; with SCANVIZ_LOG_TAR=FILE they are also packed into FILE (the device tool brings
# back few files).
#
# Uses build/portable (scripts built elsewhere with `cmake --preset portable`) when its binaries run
# here; otherwise builds from source with the libraries scripts/device-deps.sh gathered into .deps.
set -uo pipefail
out="${OUT:-$PWD/gpu-check}"
mkdir -p "$out"
say() { printf '\n== %s\n' "$*"; }
parts="${*:-tests racy amplifier sanitizers sass}"
want() { [[ " $parts " == *" $1 "* ]]; }
since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }'; }

say environment
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  head -n 2 /etc/os-release
  ldd --version | head -n 1
  g++ --version | head -n 1
  nvcc --version | tail -n 1
  cmake --version | head -n 1
  command -v compute-sanitizer cuobjdump
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

if want gui; then
say "the window on this GPU: carried Xvfb and Mesa (scripts/gpu-gui-deps.sh), NVIDIA's OpenGL through GLX"
# .gl/gui-root.tar.xz and .gl/scanviz-gui.xz (a GUI build: cmake --preset portable -DSCANVIZ_GUI=ON) come
# with the call. The X server finds xkbcomp and its GLX software driver only at their Debian paths:
# links are added there where nothing is, and nothing else is written outside /tmp.
{ grep PRETTY /etc/os-release; ldconfig -p | grep -E "libGLX_nvidia|libGL\.so|libX11\.so|libglfw|libLLVM"; command -v Xvfb xkbcomp; } |
  tee "$out/gui-env.txt"
gl=/tmp/gui-root
rm -rf "$gl" && mkdir -p "$gl" && tar -C "$gl" -xJf .gl/gui-root.tar.xz
xz -dc .gl/scanviz-gui.xz >/tmp/scanviz-gui && chmod +x /tmp/scanviz-gui
lib="$gl/usr/lib/x86_64-linux-gnu:$gl/lib/x86_64-linux-gnu"
[ -e /usr/bin/xkbcomp ] || ln -s "$gl/usr/bin/xkbcomp" /usr/bin/xkbcomp
dri=/usr/lib/x86_64-linux-gnu/dri
[ -e "$dri/swrast_dri.so" ] || { mkdir -p "$dri" && ln -s "$gl$dri/swrast_dri.so" "$dri/swrast_dri.so"; }
LD_LIBRARY_PATH="$lib" "$gl/usr/bin/Xvfb" :7 -screen 0 1920x1080x24 -xkbdir "$gl/usr/share/X11/xkb" -nolisten tcp \
  >"$out/xvfb.log" 2>&1 &
xvfb=$!
sleep 3
g() { DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME="${SCANVIZ_GLX_VENDOR:-nvidia}" LD_LIBRARY_PATH="$lib" HOME=/tmp/gui-home \
        timeout 300 /tmp/scanviz-gui "$@"; }
s() { LD_LIBRARY_PATH="$lib" /tmp/scanviz-gui "$@"; }  # the same binary's command line
shots="${SCANVIZ_SHOTS:-$out}"
if [[ ${SCANVIZ_GUI_SHOTS:-1} != 0 ]]; then  # SCANVIZ_GUI_SHOTS=0: frame times only
g gui --executor gpu --algo brent-kung --n 16 --frames 20 --step 4 --report-frames --screenshot "$shots/gui-gpu-lesson.png"
echo "GPU lesson: exit $?"
for seed in 1 2 3 4 5 6 7 8; do  # the first amplifier seed whose traced run goes wrong, for the window
  s trace --executor gpu --algo kogge-stone-racy --n 64 --op interval --amplify $seed --out /tmp/racy.json >/dev/null &&
    s stats /tmp/racy.json | grep -q "^outcome.*wrong" && break
done
s stats /tmp/racy.json | grep -E "^(hazards|outcome)"
for step in 1 2 3 4 5 6 7; do
  g gui --executor gpu --algo kogge-stone-racy --n 64 --op interval --amplify "$seed" --frames 20 --step $step \
    --screenshot "$out/gui-gpu-race-step$step.png"
  echo "amplified race (seed $seed) in the window, step $step: exit $?"
done
g gui --timing --measure 2^20,2^24,2^28 --frames 20 --report-frames --screenshot "$shots/gui-timing.png"
echo "timing panel: exit $?"
s trace --executor gpu --algo decoupled-lookback --n 1000000 --out /tmp/dl-gpu.json | tail -n 1
g gui --trace /tmp/dl-gpu.json --frames 20 --screenshot "$shots/gui-gpu-lookback.png"
echo "look-back view of the GPU trace: exit $?"
fi
if [[ ${SCANVIZ_GUI_FRAMES:-1} != 0 ]]; then  # SCANVIZ_GUI_FRAMES=0: no frame-time runs
  for round in 1 2; do
    DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME="${SCANVIZ_GLX_VENDOR:-nvidia}" LD_LIBRARY_PATH="$lib" SCANVIZ_EXE=/tmp/scanviz-gui \
      bash scripts/bench-frames.sh
  done | tee "$out/gui-frames.txt"
fi
kill "$xvfb"
fi

bin=build/portable
if ! "$bin/app/scanviz" algos >/dev/null 2>"$out/portable.err"; then
  say "portable binaries do not run here ($(head -c 200 "$out/portable.err")); building from source"
  # SCANVIZ_CUDA_ARCHS is left at auto: the configure line names the GPU it detected here.
  cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCANVIZ_DEPS_DIR="$PWD/.deps" \
    >"$out/build.log" 2>&1 &&
    cmake --build build/device -j "$(nproc)" --target ${SCANVIZ_BUILD_TARGETS:-scanviz scanviz_gpu_tests} >>"$out/build.log" 2>&1 ||
    { tail -n 30 "$out/build.log"; exit 1; }
  bin=build/device
  grep "scanviz: CUDA" "$out/build.log"
fi
sv="$bin/app/scanviz"

if want small; then
say "small and mid n: the gather kernel's shapes and baselines against the copy and CUB"
cuobjdump --dump-resource-usage "$sv" 2>/dev/null | grep -A1 "gather_kernel" |
  grep -oE "gather_kernelI[a-z]Li[0-9]|REG:[0-9]+|LOCAL:[0-9]+" | paste -sd' ' | sed 's/ gather/\ngather/g' |
  tee "$out/gather-resources.txt"
IFS=, read -ra small_types <<<"${SCANVIZ_SMALL_TYPES:-int32,int64}"
for type in "${small_types[@]}"; do
  SCANVIZ_BENCH_POLICIES=${SCANVIZ_SMALL_POLICIES:-gather,ordering-floor,tiles-only,tiles-alone,empty} timeout 200 "$sv" bench --type "$type" --rounds 3 \
    --sizes "${SCANVIZ_SMALL_SIZES:-2^12,2^14,2^15,2^16,2^17,2^18,2^19,2^20,2^21,2^22}" --algorithms decoupled-lookback \
    --json "$out/small-$type.json" >"$out/small-$type.txt" 2>"$out/small-$type.err"
  echo "bench ($type): exit $?"
  grep -E "^bench: decoupled|OUTPUT WRONG" "$out/small-$type.err"
done
fi

if want arches; then
say "architectures: the pre-sm_80 code (compute_75 PTX the driver compiles) under the GPU tests; a build for another GPU"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d .)
other=$([[ $cc == 86 ]] && echo 89-real || echo 86-real)
for b in "arch75 75-virtual" "archother $other"; do
  set -- $b
  cmake -S . -B "build/$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCANVIZ_DEPS_DIR="$PWD/.deps" -DSCANVIZ_CUDA_ARCHS="$2" \
    >"$out/build-$1.log" 2>&1 && cmake --build "build/$1" -j "$(nproc)" --target scanviz scanviz_gpu_tests >>"$out/build-$1.log" 2>&1 &
done
wait
grep -h "scanviz: CUDA" "$out"/build-arch*.log
echo "compute_75 PTX: $(cuobjdump -ptx build/arch75/app/scanviz 2>/dev/null | grep -c 'cp\.async') cp.async, $(cuobjdump -ptx build/arch75/app/scanviz 2>/dev/null | grep -c '^\.target sm_75') modules for sm_75; sm_$cc build: $(cuobjdump -sass "$sv" 2>/dev/null | grep -c LDGSTS) LDGSTS"
start=$(date +%s.%N)
# SCANVIZ_ARCH75_TESTS=PATTERN runs only those test cases (doctest -tc).
timeout 500 build/arch75/tests/scanviz_gpu_tests ${SCANVIZ_ARCH75_TESTS:+-tc="$SCANVIZ_ARCH75_TESTS"} >"$out/arch75-gpu-tests.log" 2>&1
echo "GPU tests on the compute_75 build: exit $? after $(since "$start") s"
grep -E "^\[doctest\] (test cases|assertions)|ERROR|FAILED" "$out/arch75-gpu-tests.log" | head -n 20
timeout 120 build/arch75/app/scanviz bench --sizes 2^24 --algorithms decoupled-lookback | grep -v "^bench:"
o=build/archother/app/scanviz
for cmd in "trace --executor gpu --algo kogge-stone --n 8 --out /tmp/x.json" "race --runs 3" "bench --sizes 2^20" \
           "trace --algo kogge-stone --n 8 --out /tmp/auto.json"; do
  timeout 60 $o $cmd >/tmp/o.txt 2>/tmp/e.txt
  printf 'built for %s: scanviz %s: exit %s, %s stderr line(s): %s | stdout: %s\n' "$other" "$cmd" "$?" \
    "$(wc -l </tmp/e.txt)" "$(cat /tmp/e.txt)" "$(head -c 300 /tmp/o.txt)"
done | tee "$out/arch-mismatch.txt"
timeout 60 build/archother/tests/scanviz_gpu_tests >/tmp/o.txt 2>&1
echo "GPU tests built for $other: exit $?: $(head -n 1 /tmp/o.txt)" | tee -a "$out/arch-mismatch.txt"
fi

if want device && ! want tests; then
say "device-wide scans: GPU tests"
timeout 420 "$bin/tests/scanviz_gpu_tests" -tc='gpu device*' >"$out/device-tests.log" 2>&1
echo "exit $?"
grep -E "^\[doctest\] (test cases|assertions)|fence=off runs|ERROR|FAILED" "$out/device-tests.log" | head -n 40
fi

if want tests; then
say "GPU test suites (every test case)"
start=$(date +%s.%N)
timeout 540 "$bin/tests/scanviz_gpu_tests" --duration=true >"$out/gpu-tests.log" 2>&1
echo "exit $? after $(since "$start") s"
grep -E "^\[doctest\] (test cases|assertions)|fence=off runs|ERROR|FAILED" "$out/gpu-tests.log" | head -n 40
fi

if want device; then

say "device-wide scans: scanviz bench (default sizes)"
timeout 300 "$sv" bench --json "$out/bench.json" >"$out/bench.txt" 2>"$out/bench-progress.txt"
echo "exit $?"
cat "$out/bench.txt"

say "SASS of the tile kernels: 16-byte accesses; trace code (atomics, SM id) only in the traced ones"
cuobjdump -sass "$sv" 2>/dev/null | awk '
  /Function : / { name = $3; kind = (name ~ /tile_pass_kernel.*NoRecorder/) ? "untraced" : (name ~ /tile_pass_kernel.*TileRecorder/) ? "traced" : "other"; n[kind]++ }
  kind != "other" && /\/\*[0-9a-f]+\*\// { ins[kind]++ }
  kind != "other" && /LDG.E.128|LDGSTS.E.BYPASS.128/ { ldg[kind]++ }
  kind != "other" && /STG.E.128/ { stg[kind]++ }
  kind != "other" && /ATOMG|ATOM\.|RED\./ { atom[kind]++ }
  kind != "other" && /SR_VIRTID|SR_SMID/ { smid[kind]++ }
  END { for (k in n) if (k != "other") printf "%-9s tile kernels %4d  instructions/kernel %6.0f  16-byte loads %5d  STG.128 %5d  atomics %5d  SM id reads %5d\n", k, n[k], ins[k] / n[k], ldg[k], stg[k], atom[k], smid[k] }' |
  tee "$out/device-sass.txt"
cuobjdump -sass "$sv" 2>/dev/null | awk '/Function : .*DecoupledLookbackENS_5SumOpIiEENS0_10NoRecorderENS0_10TileConfigILi24ELb0ELi1024ELi2ELb1E/ { on = 1; print; next }
  on && /Function : / { exit } on { print }' >"$out/dl-i32-sum.sass"
echo "decoupled-lookback int32 sum (default policy) SASS: $(grep -c LDGSTS "$out/dl-i32-sum.sass") cp.async, $(grep -c "LDS.128" "$out/dl-i32-sum.sass") LDS.128, $(grep -c "STG.E.128" "$out/dl-i32-sum.sass") STG.128, $(grep -c "CCTL\|PREFETCH\|CCTLL" "$out/dl-i32-sum.sass") prefetch/cache ops"
fi

if want policies; then
for round in 1 2; do
  say "decoupled look-back under other tile policies (2^24, 2^26, 2^28), round $round"
  SCANVIZ_BENCH_POLICIES=1 timeout 200 "$sv" bench --sizes 2^24,2^26,2^28 --runs 30 --algorithms decoupled-lookback \
    >"$out/bench-policies-$round.txt" 2>&1
  echo "exit $?"
  grep -v "^bench:" "$out/bench-policies-$round.txt"
done
fi

if want candidates; then
say "tile policies: GPU tests, registers and spills, bench at 2^16..2^30"
timeout 400 "$bin/tests/scanviz_gpu_tests" -tc='*tile policy*,*single-pass switches*,*switches show*' >"$out/policy-tests.log" 2>&1
echo "tests: exit $?"
grep -E "^\[doctest\] (test cases|assertions)|ERROR|FAILED" "$out/policy-tests.log" | head -n 20
cuobjdump --dump-resource-usage "$sv" 2>/dev/null | grep -A1 "DecoupledLookbackENS_5SumOpIiEENS0_10NoRecorder" \
  >"$out/dl-resources.txt"
grep -oE "TileConfigILi[0-9]+ELb[01]ELi[0-9]+ELi[0-9]+ELb[01]ELb[01]E|REG:[0-9]+|LOCAL:[0-9]+" "$out/dl-resources.txt" | paste -sd' ' |
  sed 's/ TileConfig/\nTileConfig/g'
# SCANVIZ_CANDIDATE_TYPES=int32,int64: the types whose policies are timed (int32 and int64 have some).
IFS=, read -ra candidate_types <<<"${SCANVIZ_CANDIDATE_TYPES:-int32}"
for type in "${candidate_types[@]}"; do
  suffix=$([[ $type == int32 ]] || echo "-$type")
  SCANVIZ_BENCH_POLICIES=1 timeout 400 "$sv" bench --type "$type" \
    --sizes "${SCANVIZ_CANDIDATE_SIZES:-2^16,2^18,2^20,2^21,2^22,2^23,2^24,2^25,2^26,2^28,2^30}" \
    --algorithms decoupled-lookback --json "$out/candidates$suffix.json" >"$out/candidates$suffix.txt" 2>"$out/candidates$suffix.err"
  echo "bench ($type): exit $?"
  cat "$out/candidates$suffix.txt"
done
fi

if want sweep; then
IFS=, read -ra sweep_types <<<"${SCANVIZ_SWEEP_TYPES:-int32}"
sizes=${SCANVIZ_SWEEP_SIZES:-$(seq -s, -f '2^%g' 16 30)}
# SCANVIZ_SWEEP_DEADLINE=S: start no round once the script has run S seconds (the device tool's
# calls end at 10 minutes, and a call cut off brings no logs back).
for round in $(seq 1 "${SCANVIZ_SWEEP_ROUNDS:-1}"); do
  for type in "${sweep_types[@]}"; do
    if [[ -n ${SCANVIZ_SWEEP_DEADLINE:-} ]] && (( SECONDS > SCANVIZ_SWEEP_DEADLINE )); then
      echo "sweep: $type round $round skipped (the script has run $SECONDS s)"
      continue
    fi
    say "sweep: decoupled look-back, CUB and the copy, $type sum, 2^16..2^30, round $round"
    type_opt=()
    [[ $type == int32 ]] || type_opt=(--type "$type")
    start=$(date +%s.%N)
    timeout 280 "$sv" bench --sizes "$sizes" --algorithms decoupled-lookback "${type_opt[@]}" --rounds "${SCANVIZ_BENCH_ROUNDS:-3}" \
      --json "$out/sweep-$type-$round.json" >"$out/sweep-$type-$round.txt" 2>"$out/sweep-$type-$round.err"
    echo "exit $? after $(since "$start") s"
    cat "$out/sweep-$type-$round.txt"
    grep -v "^bench:" "$out/sweep-$type-$round.err" | head -n 5
  done
done
say "sweep: the table docs/performance.md shows (scripts/bench-table.py)"
python3 scripts/bench-table.py "$out"/sweep-*.json | tee "$out/sweep-table.md"
fi

if want nsys; then
say "Nsight Systems: bench at 2^16, 2^22 and 2^28 (kernels, memsets and the gaps between them)"
if command -v nsys >/dev/null; then
  for size in 2^16 2^22 2^28; do
    rep="/tmp/nsys-${size/^/_}"
    timeout 200 nsys profile --trace=cuda --force-overwrite true -o "$rep" \
      "$sv" bench --sizes "$size" --runs 20 --algorithms decoupled-lookback >"$out/nsys-${size/^/_}.log" 2>&1
    echo "n = $size: exit $?"
    nsys stats --force-export true --report cuda_gpu_trace --format csv -o "$out/nsys-${size/^/_}" "$rep.nsys-rep" \
      >>"$out/nsys-${size/^/_}.log" 2>&1
    nsys stats --report cuda_gpu_kern_sum,cuda_gpu_mem_time_sum "$rep.nsys-rep" 2>/dev/null | head -n 40
  done
else
  echo "nsys is not installed here"
fi
fi

if want profile; then
say "Nsight Compute at 2^28: decoupled look-back (the default: its tile kernel, or from 9 tiles a multiprocessor up on sm_90 its pipelined kernel) and CUB's scan kernel"
# The third launch of each (after two warm-ups); the clocks left as they are.
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats"
metrics="--metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum"
# SCANVIZ_PROFILE_POLICY=NAME:WORDS adds the first tile policy that SCANVIZ_BENCH_POLICIES=WORDS
# picks (e.g. dl512:512x24): its third launch, after the default's five (3 warm-ups, 1 timed
# run and the checked run). Where the default runs the pipelined kernel instead (sm_90, from 9
# tiles a multiprocessor up: bench's first line says from which n), set SCANVIZ_PROFILE_SKIP=2.
IFS=, read -ra profile_sizes <<<"${SCANVIZ_PROFILE_SIZES:-2^28}"
full=${SCANVIZ_PROFILE_FULL:-0}
for size in "${profile_sizes[@]}"; do
for who in "dl (tile_pass|pipe)_kernel" "cub DeviceScanKernel" ${SCANVIZ_PROFILE_POLICY:+"${SCANVIZ_PROFILE_POLICY/:/ }"}; do
  set -- $who
  policies=0 skip=2
  [[ $1 == dl || $1 == cub ]] || { policies=$2; set -- "$1" tile_pass_kernel; skip=${SCANVIZ_PROFILE_SKIP:-7}; }
  log="$out/ncu-$1-${size/^/_}.txt"
  # SCANVIZ_PROFILE_FULL=1: every section (--set full), the report kept, and the stall samples of
  # every SASS instruction as CSV (where the warps wait: loads, barriers, the look-back's polls).
  what=($sections $metrics)
  [[ $full == 1 ]] && what=(--set full $metrics -o "${log%.txt}" -f)
  SCANVIZ_BENCH_POLICIES=$policies timeout 240 ncu --clock-control none -k "regex:$2" \
    --launch-skip $skip --launch-count 1 "${what[@]}" \
    "$sv" bench --sizes "$size" --runs 1 --algorithms decoupled-lookback >"$log" 2>&1
  echo "$1 at n = $size: exit $?"
  if [[ $full == 1 ]]; then
    ncu -i "${log%.txt}.ncu-rep" --page details >>"$log" 2>&1
    ncu -i "${log%.txt}.ncu-rep" --page source --csv --print-source sass >"${log%.txt}-sass.csv" 2>&1
    # Shares of the warps' stall samples, and for decoupled look-back its polls a tile (descriptor
    # loads per tile-id atomic) and the polls that had to sleep.
    python3 - "${log%.txt}-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
col = {h: i for i, h in enumerate(rows[head])}
data = [r for r in rows[head + 1:] if len(r) == len(rows[head])]
num = lambda r, h: int(r[col[h]] or 0)
total = sum(num(r, "Warp Stall Sampling (All Samples)") for r in data)
barrier = sum(num(r, "stall_barrier") for r in data)
busiest = max(num(r, "stall_barrier") for r in data)
long_sb = sum(num(r, "stall_long_sb") for r in data)
ran = lambda word: [num(r, "Instructions Executed") for r in data if word in r[col["Source"]]]
tiles, polls, sleeps = sum(ran("ATOMG.E.ADD.64")), sum(ran("LDG.E.64.STRONG.GPU")), max(ran("NANOSLEEP") or [0])
print(f"stall samples {total}: barriers {100 * barrier / total:.1f}% (the busiest one {100 * busiest / total:.1f}%), "
      f"long scoreboard {100 * long_sb / total:.1f}%" +
      (f"; {tiles} tiles, {polls / tiles:.2f} polls and {sleeps / tiles:.2f} sleeps a tile" if tiles else ""))
PY
  fi
  grep -E "^  [a-zA-Z_]+.*\(|DRAM Throughput|Memory Throughput|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Issue Slots Busy|dram__bytes|lts__t_sectors|Dynamic Shared|L2 Hit|Waves Per SM|Stall" "$log" | head -n 40
done
done
fi

if want timing; then
say "the GUI timing panel's worker alone: bench --algorithms decoupled-lookback --runs 20, wall-clock"
for k in 24 28; do
  start=$(date +%s.%N)
  timeout 120 "$sv" bench --sizes "2^$k" --algorithms decoupled-lookback --runs 20 >"$out/timing-$k.txt" 2>&1
  code=$?
  printf 'n = 2^%s: exit %s, %s s wall-clock\n' "$k" "$code" "$(since "$start")"
done | tee "$out/timing.txt"
grep -hv "^bench:" "$out/timing-24.txt" "$out/timing-28.txt"
fi

if want device-sanitizers; then
say "compute-sanitizer on the small-n and one-wave device tests"
for tool in memcheck racecheck synccheck; do
  timeout 240 compute-sanitizer --tool "$tool" "$bin/tests/scanviz_gpu_tests" -tc='gpu device small*,gpu device one-wave*' \
    >"$out/device-$tool.txt" 2>&1
  printf '%-10s exit %s  %s\n' "$tool" "$?" "$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test cases:" "$out/device-$tool.txt" | tr '\n' ' ')"
done | tee "$out/device-sanitizers.txt"
# bench's graphs: the scans captured on a stream and replayed (int32 and double, 2^16 and 2^22).
for type in int32 double; do
  timeout 200 compute-sanitizer --tool memcheck "$sv" bench --type "$type" --sizes 2^16,2^22 --runs 2 --rounds 1 \
    --algorithms decoupled-lookback >"$out/bench-memcheck-$type.txt" 2>&1
  printf 'bench %-6s memcheck exit %s  %s\n' "$type" "$?" "$(grep -E "ERROR SUMMARY" "$out/bench-memcheck-$type.txt")"
done | tee -a "$out/device-sanitizers.txt"
fi

if want racy; then
say "kogge-stone-racy on the GPU: hazards in the traced run"
timeout 60 "$sv" trace --executor gpu --algo kogge-stone-racy --n 1024 --op sum --out "$out/racy-gpu.json"
"$sv" stats "$out/racy-gpu.json" >"$out/racy-gpu-stats.txt" 2>&1
grep -E "^(steps|operations|hazards|outcome)" "$out/racy-gpu-stats.txt"
"$sv" stats "$out/racy-gpu.json" --json | python3 -c '
import json, sys, collections
s = json.load(sys.stdin)
c = collections.Counter((h["kind"], h["first"]["line"], h["second"]["line"]) for h in s["hazards"])
for (k, l1, l2), n in sorted(c.items()): print(f"scanviz: {n:6d} {k} between line {l1} and line {l2}")'

say "kogge-stone-racy on the GPU, traced with the race amplifier"
timeout 60 "$sv" trace --executor gpu --algo kogge-stone-racy --n 1024 --op interval --amplify 3 --out "$out/racy-gpu-amplified.json"
"$sv" stats "$out/racy-gpu-amplified.json" | grep -E "^(hazards|outcome)|RAW" | head -n 6

say "kogge-stone-racy: compute-sanitizer racecheck on the untraced kernel"
timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard "$sv" race --algo kogge-stone-racy --n 1024 \
  --runs 1 >"$out/racecheck-racy.txt" 2>&1
python3 - "$out/racecheck-racy.txt" <<'PY'
import collections, re, sys
# Each report: "Potential WAR hazard detected at __shared__ ADDR", then the two threads with file:line.
counts, pairs = collections.Counter(), collections.Counter()
lines = open(sys.argv[1], errors="replace").read().splitlines()
for i, line in enumerate(lines):
    m = re.search(r"Potential (\w+) hazard detected at __shared__ (0x[0-9a-f]+)", line)
    if not m:
        continue
    who = []
    for follow in lines[i + 1:i + 3]:
        t = re.search(r"(Read|Write) Thread \((\d+),.* in ([^ ]+:\d+)", follow)
        if t:
            who.append((t.group(1), int(t.group(2)), t.group(3)))
    if len(who) == 2:
        counts[(m.group(1), who[0][0], who[0][2], who[1][0], who[1][2])] += 1
        pairs[abs(who[0][1] - who[1][1])] += 1
for (kind, a, la, b, lb), n in sorted(counts.items()):
    print(f"racecheck: {n:6d} {kind} reports: {a} at {la} / {b} at {lb}")
print("racecheck: thread distances in the reports:", dict(sorted(pairs.items())))
PY
grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$out/racecheck-racy.txt"
fi

if want amplifier; then
say "race amplifier: wrong outputs over 1000 untraced runs each"
timeout 300 "$sv" race --algo kogge-stone-racy --n 1024 --runs 1000 --amplify 1 | tee "$out/race-rates.txt"
timeout 300 "$sv" race --algo kogge-stone-racy --n 1024 --op interval --runs 1000 --amplify 1000 | tee -a "$out/race-rates.txt"
fi

if want sanitizers; then
say "compute-sanitizer on the race-free kernels (untraced n=1000, traced n=256)"
# The race-free rows of the algorithm table (kernels/algorithms.def: a row's first line names it).
race_free=$(sed -n 's/^SCANVIZ_BLOCK_ALGORITHM("\([a-z0-9-]*\)", [A-Za-z0-9_]*, [A-Za-z]*, RaceFree,.*/\1/p' kernels/algorithms.def)
for algo in $race_free; do
  for tool in memcheck synccheck racecheck; do
    u=$(timeout 120 compute-sanitizer --tool "$tool" "$sv" race --algo "$algo" --n 1000 --runs 1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | tr '\n' ' ')
    t=$(timeout 180 compute-sanitizer --tool "$tool" "$sv" trace --executor gpu --algo "$algo" --n 256 --out /tmp/sv.json 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | tr '\n' ' ')
    printf '%-26s %-9s untraced: %-40s traced: %s\n' "$algo" "$tool" "$u" "$t"
  done
done | tee "$out/sanitizers.txt"
fi

if want corpus; then
say "the whole-file corpus: each file's own main under nvcc, run, and under compute-sanitizer"
# tests/fixtures/whole_files: every file but the two that hang by design (expected.tsv: endless-loop).
# What each printed (PASS or FAIL) and each tool's summary, one line a file and tool.
cdir=/tmp/sv-corpus && mkdir -p "$cdir"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d .)
files="${SCANVIZ_CORPUS_FILES:-$(awk -F'\t' 'NR > 1 && $5 !~ /endless-loop/ { print $1 }' tests/fixtures/whole_files/expected.tsv)}"
for f in ${files//,/ }; do
  exe="$cdir/${f%.cu}"
  if ! nvcc -std=c++17 -O2 -lineinfo -arch="sm_$arch" -o "$exe" "tests/fixtures/whole_files/$f" >"$exe.nvcc.txt" 2>&1; then
    printf '%-52s nvcc failed: %s\n' "$f" "$(head -c 200 "$exe.nvcc.txt" | tr '\n' ' ')"
    continue
  fi
  printed=$(timeout 60 "$exe" 2>&1)
  code=$?
  printf '%-52s %-10s %s (exit %s)\n' "$f" run "$(grep -oE 'PASS|FAIL' <<<"$printed" | head -n 1)" "$code"
  for tool in memcheck racecheck synccheck initcheck; do
    printf '%-52s %-10s %s\n' "$f" "$tool" "$(timeout 300 compute-sanitizer --tool "$tool" "$exe" 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Barrier error' | sort -u | tr '\n' ' ')"
  done
done | tee "$out/corpus.txt"
fi

if want sass; then
say "SASS: trace code (atomics, %globaltimer) in traced vs untraced kernels (nanosleep is the amplifier)"
cuobjdump -sass "$sv" 2>/dev/null | awk '
  /Function : / { name = $3; kind = (name ~ /untraced_block_scan/) ? "untraced" : (name ~ /traced_block_scan/) ? "traced" : "other"; n[kind]++ }
  /ATOM|RED\./ { atom[kind]++ }
  /SR_GLOBALTIMER/ { timer[kind]++ }
  /NANOSLEEP/ { sleep[kind]++ }
  END { for (k in n) printf "%-9s kernels %4d  atomics %6d  globaltimer %6d  nanosleep %6d\n", k, n[k], atom[k], timer[k], sleep[k] }' |
  tee "$out/sass-summary.txt"
fi

if [[ -n "${SCANVIZ_LOG_TAR:-}" ]]; then
  # Packed beside, then moved: a FILE under $OUT would change while tar reads it (tar exits 1).
  packed=$(mktemp)
  tar czf "$packed" -C "$out" . && mv "$packed" "$SCANVIZ_LOG_TAR" && echo "logs packed into $SCANVIZ_LOG_TAR"
fi
