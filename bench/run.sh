#!/bin/sh
# bench/run.sh — `make bench`: generates the inputs, runs cgtools and the
# tools a user would otherwise use on them side by side, prints one line
# per run and then the targets of issue 7 with the measured ratios.
#
# cgtools' stages and wc -l on the compiler-shaped profile, and cgtools
# and gprof on the gmon.out files, are timed as the fastest of BENCH_REPS
# runs, default 5 (on a shared virtual machine one run of the same stage
# on the same file varied by up to 56%, and the fastest of three by 20%
# from one invocation to the next); the other tools, which take minutes,
# run once.
# Report lines (a stable format, so that runs can be compared):
#   RUN  input  tool  wall_s  cpu_s  peak_MB  MB/s  exit
#   SCALE  stage  input_ratio  time_ratio  time_ratio_per_10x_input
#   TARGET  name  measured  limit  PASS|MISS
#   RATIO  name  measured  (printed to compare, no target)
# Environment: BENCH_MB (size of the compiler-shaped profile and of the
# huge folded and amon.out inputs, default 500),
# BENCH_REPS (runs of each cgtools stage, the fastest reported, default 5),
# BENCH_DIR (work directory, default bench/work), GPROF2DOT (path to
# gprof2dot.py, optional), BENCH_TIMEOUT (seconds another tool may take on
# one input before it is stopped, default 900: its line then says exit 124;
# what gprof2dot says on stderr is kept in BENCH_DIR/gprof2dot-INPUT.err).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tools=${TOOLS:-$top/src/tools}
mb=${BENCH_MB:-500}
reps=${BENCH_REPS:-5}
work=${BENCH_DIR:-$top/bench/work}
mkdir -p "$work" || exit 1
# the runs write to /dev/null: a regular file there (left by a tool that
# replaced the device, as root) makes every run also fill a file
[ -c /dev/null ] || echo "WARNING: /dev/null is not a device here: writing to it costs time, and the times are too high" >&2
cc=${CC:-cc}
$cc -O2 -o "$work/cggen" "$here/cggen.c" && $cc -O2 -o "$work/measure" "$here/measure.c" || exit 1
gen="$work/cggen"
measure="$work/measure"

# run INPUT TOOL COMMAND [REPS [OUTPUT]] — measures COMMAND, the fastest
# of REPS runs (default 1: other tools take minutes); sets $wall $cpu
# $rss_mb $status, $wall in microseconds for the ratios (the RUN line
# rounds it to milliseconds).  Each run starts after sync: otherwise the kernel is
# still writing back what the last one wrote (150 MB of XML) while this
# one runs.  OUTPUT, the file COMMAND writes, is removed before each run:
# truncating the last run's 126 MB in the timed command cost about 0.09 s
# (ext4 frees its pages, and writes the new file back at its close).
run () {
  input=$1 tool=$2
  best=$(i=0; while [ "$i" -lt "${4:-1}" ]; do
           [ -z "${5:-}" ] || rm -f "$5"; sync; "$measure" "$3"; i=$((i + 1))
         done | sort -g -k1,1 | head -n 1)
  set -- $best
  wall=$1 cpu=$2 rss_mb=$(awk -v k="$3" 'BEGIN { printf "%.1f", k / 1024 }') status=$4
  size=$(stat -c %s "$work/$input" 2>/dev/null || echo 0)
  rate=$(awk -v s="$size" -v w="$wall" 'BEGIN { printf "%.1f", (w > 0 ? s / 1e6 / w : 0) }')
  printf 'RUN  %-24s %-26s %8s %8s %9s %9s %4s\n' "$input" "$tool" "$(ms "$wall")" "$(ms "$cpu")" "$rss_mb" "$rate" "$status"
}

target () { # NAME MEASURED LIMIT (measured must be <= limit)
  verdict=$(awk -v m="$2" -v l="$3" 'BEGIN { print (m <= l) ? "PASS" : "MISS" }')
  printf 'TARGET  %-52s %10s %10s  %s\n' "$1" "$2" "$3" "$verdict"
}

# other tools get BENCH_TIMEOUT seconds an input
limit="timeout ${BENCH_TIMEOUT:-900}"

ms () { awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
ratio4 () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }'; }

echo "# cgtools benchmark: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, inputs in $work"
printf '#    %-24s %-26s %8s %8s %9s %9s %4s\n' input tool wall_s cpu_s peak_MB MB/s exit

# ---- the compiler-shaped callgrind profile, at 1/10 and full size ----
for scale in $((mb / 10)) "$mb"; do
  in="compiler-$scale.cg"
  [ -s "$work/$in" ] || "$gen" compiler "$scale" >"$work/$in"
  run "$in" "wc -l" "wc -l '$work/$in' >/dev/null" "$reps"; wc=$wall
  run "$in" cgmerge "'$tools/cgmerge' '$work/$in' >'$work/$in.xml'" "$reps" "$work/$in.xml"
  merge=$wall merge_rss=$rss_mb
  run "$in" cgcycles "'$tools/cgcycles' '$work/$in.xml' >'$work/$in.cycles.xml'" "$reps" "$work/$in.cycles.xml"
  cycles=$wall
  run "$in" cgcost "'$tools/cgcost' '$work/$in.cycles.xml' >'$work/$in.cost.xml'" "$reps" "$work/$in.cost.xml"
  cost=$wall
  run "$in" cgtree "'$tools/cgtree' '$work/$in.cost.xml' >/dev/null" "$reps"; tree=$wall
  run "$in" "pipeline (4 stages)" "'$tools/cgmerge' '$work/$in' | '$tools/cgcycles' | '$tools/cgcost' | '$tools/cgtree' >/dev/null" "$reps"
  pipeline=$wall
  eval "merge_$scale=$merge cycles_$scale=$cycles cost_$scale=$cost tree_$scale=$tree pipeline_$scale=$pipeline"
  # each stage's own input, for scaling by the size it really reads
  eval "merge_size_$scale=$(stat -c %s "$work/$in") cycles_size_$scale=$(stat -c %s "$work/$in.xml")"
  eval "cost_size_$scale=$(stat -c %s "$work/$in.cycles.xml") tree_size_$scale=$(stat -c %s "$work/$in.cost.xml")"
done
full="compiler-$mb.cg"
size_mb=$(awk -v s="$(stat -c %s "$work/$full")" 'BEGIN { printf "%.1f", s / 1e6 }')
if command -v callgrind_annotate >/dev/null; then
  run "$full" "callgrind_annotate" "callgrind_annotate --inclusive=yes '$work/$full' >/dev/null"; annotate=$wall
else
  annotate=""
fi
# ---- cgcost --base (issue 32): two profiles of the full size, the second
# the first with every seventh call count doubled, diffed against the time
# cgmerge takes to read one ----
base_in="compiler-$mb-b.cg"
[ -s "$work/$base_in" ] || awk 'NR % 7 == 0 && /^calls=/ { split ($1, c, "="); $1 = "calls=" c[2] * 2 } 1' \
  "$work/$full" >"$work/$base_in"
run "$full" "cgcost --base (two)" "'$tools/cgcost' --base='$work/$base_in' --format=tsv '$work/$full' >/dev/null" "$reps"
diff_time=$wall
merge_full=$(eval echo "\$merge_$mb")

if [ -n "${GPROF2DOT:-}" ]; then
  small_in="compiler-$((mb / 10)).cg"
  run "$small_in" gprof2dot "$limit python3 '$GPROF2DOT' -f callgrind '$work/$small_in' >/dev/null 2>'$work/gprof2dot-$small_in.err'"
  g2d_small=$wall g2d_small_status=$status
  run "$full" gprof2dot "$limit python3 '$GPROF2DOT' -f callgrind '$work/$full' >/dev/null 2>'$work/gprof2dot-$full.err'"
fi

# ---- perf script text (DESIGN §7: read at 200 MB/s or more), two
# fifths of the callgrind profile's size: 200 MB by default ----
perf_in="perf-$((mb * 2 / 5)).txt"
[ -s "$work/$perf_in" ] || "$gen" perf $((mb * 2 / 5)) >"$work/$perf_in"
run "$perf_in" "wc -l" "wc -l '$work/$perf_in' >/dev/null" "$reps"
run "$perf_in" cgmerge "'$tools/cgmerge' '$work/$perf_in' >'$work/$perf_in.xml'" "$reps" "$work/$perf_in.xml"
perf_wall=$wall perf_cpu=$cpu
run "$perf_in" "cgcost --format=folded" "'$tools/cgcost' --format=folded '$work/$perf_in' >/dev/null" "$reps"
perf_mb=$(awk -v s="$(stat -c %s "$work/$perf_in")" 'BEGIN { printf "%.1f", s / 1e6 }')

# ---- the compiler-shaped profile compressed with zstd: read by cgmerge, and
# through a pipe from zstd -dc, which decompresses in a process of its own
# (issue 30: no slower than that) ----
zst=""
if command -v zstd >/dev/null; then
  [ -s "$work/$full.zst" ] || zstd -q -f "$work/$full" -o "$work/$full.zst"
  run "$full.zst" "cgmerge F.zst" "'$tools/cgmerge' '$work/$full.zst' >/dev/null" "$reps"; zst=$wall
  run "$full.zst" "zstd -dc F.zst | cgmerge" "zstd -dc '$work/$full.zst' | '$tools/cgmerge' >/dev/null" "$reps"
  zst_pipe=$wall
fi

# ---- cycles ----
for spec in "cycles 2000" "ring 7500"; do
  set -- $spec
  in="$1-$2.cg"
  [ -s "$work/$in" ] || "$gen" "$1" "$2" >"$work/$in"
  run "$in" cgcycles "'$tools/cgcycles' --format=text '$work/$in' >/dev/null"; eval "cyc_$1=$wall"
  run "$in" "cgcost (auto)" "'$tools/cgcost' --format=tsv '$work/$in' >/dev/null"; eval "costc_$1=$wall"
  run "$in" "cgcost --method=decompose" "'$tools/cgcost' --method=decompose --format=tsv '$work/$in' >/dev/null"
  eval "dec_$1=$wall dec_status_$1=$status"
  run "$in" cgtree "'$tools/cgtree' '$work/$in' >/dev/null"; eval "treec_$1=$wall"
  if [ -n "${GPROF2DOT:-}" ]; then
    run "$in" gprof2dot "$limit python3 '$GPROF2DOT' -f callgrind '$work/$in' >/dev/null 2>'$work/gprof2dot-$in.err'"
    eval "g2d_$1=$wall g2d_status_$1=$status"
  fi
done

# ---- the million-deep chain ----
in=chain-1000000.folded
[ -s "$work/$in" ] || "$gen" chain 1000000 >"$work/$in"
chain_ok=1
run "$in" cgmerge "'$tools/cgmerge' '$work/$in' >'$work/$in.xml'" 1 "$work/$in.xml"; [ "$status" = 0 ] || chain_ok=0
run "$in" cgcycles "'$tools/cgcycles' '$work/$in.xml' >'$work/$in.cycles.xml'" 1 "$work/$in.cycles.xml"
[ "$status" = 0 ] || chain_ok=0
run "$in" cgcost "'$tools/cgcost' '$work/$in.cycles.xml' >'$work/$in.cost.xml'" 1 "$work/$in.cost.xml"
[ "$status" = 0 ] || chain_ok=0
run "$in" cgtree "'$tools/cgtree' '$work/$in.cost.xml' >/dev/null"; [ "$status" = 0 ] || chain_ok=0
if [ -n "${GPROF2DOT:-}" ]; then
  run "$in" "gprof2dot -f collapse" "$limit python3 '$GPROF2DOT' -f collapse '$work/$in' >/dev/null 2>'$work/gprof2dot-$in.err'"
fi

# ---- 100 gmon.out files of one program: a small one, and one of 3,000
# functions (DESIGN §7: no slower than GNU gprof on the same input) ----
# gmon_case INPUT EXE — 100 runs of EXE with arguments 3..9 leave their
# gmon.out files in $work/INPUT; then cgtools (two stages, and cgcost
# alone) and gprof on them, each the fastest of $reps (they take
# milliseconds); sets $gmon_cgcost and $gmon_gprof
gmon_case () {
  rm -rf "$work/$1"; mkdir -p "$work/$1"
  i=0
  while [ $i -lt 100 ]; do
    (cd "$work/$1" && GMON_OUT_PREFIX=gmon.out "$2" $((i % 7 + 3)) >/dev/null)
    i=$((i + 1))
  done
  run "$1" "cgmerge --executable (100 files)" "'$tools/cgmerge' --executable='$2' '$work/$1'/gmon.out.* >'$work/$1.xml'" "$reps" "$work/$1.xml"
  run "$1" "cgcost --format=gprof" "'$tools/cgcost' --format=gprof '$work/$1.xml' >/dev/null" "$reps"
  run "$1" "cgcost --executable" "'$tools/cgcost' --executable='$2' --format=gprof '$work/$1'/gmon.out.* >/dev/null" "$reps"
  gmon_cgcost=$wall gmon_gprof=
  if command -v gprof >/dev/null; then
    run "$1" "gprof -b (100 files)" "gprof -b '$2' '$work/$1'/gmon.out.* >/dev/null" "$reps"
    gmon_gprof=$wall
  fi
}
gmon_small= gmon_big=
if $cc -pg -O1 -o "$work/gmonprog" "$here/gmonprog.c" 2>/dev/null; then
  gmon_case gmon "$work/gmonprog"
  gmon_small="$gmon_cgcost $gmon_gprof"
fi
"$gen" program 3000 >"$work/gmonbig.c"
if $cc -pg -O1 -o "$work/gmonbig" "$work/gmonbig.c" 2>/dev/null; then
  gmon_case gmon-3000 "$work/gmonbig"
  gmon_big="$gmon_cgcost $gmon_gprof"
fi

# ---- huge inputs of each shape (the charter: inputs can be huge): folded
# stacks 100,000 frames deep, folded stacks of about a million distinct
# stacks (also gzip'd), and an amon.out of 2.2 million contexts, each of
# BENCH_MB; one run each (they take seconds to minutes): each stage's
# peak memory against the input's size ----
for spec in "deep folded" "wide folded" "amon amon"; do
  set -- $spec
  in="$1-$mb.$2"
  [ -s "$work/$in" ] || "$gen" "$1" "$mb" >"$work/$in"
  run "$in" cgmerge "'$tools/cgmerge' '$work/$in' >'$work/$in.xml'" 1 "$work/$in.xml"
  run "$in" "cgcycles (its XML)" "'$tools/cgcycles' '$work/$in.xml' >'$work/$in.cycles.xml'" 1 "$work/$in.cycles.xml"
  run "$in" "cgcost (its XML)" "'$tools/cgcost' '$work/$in.cycles.xml' >'$work/$in.cost.xml'" 1 "$work/$in.cost.xml"
  run "$in" "cgtree (its XML)" "'$tools/cgtree' '$work/$in.cost.xml' >/dev/null"
  run "$in" "cgcost --format=tsv" "'$tools/cgcost' --format=tsv '$work/$in' >/dev/null"
  rm -f "$work/$in.cycles.xml" "$work/$in.cost.xml"
done
in="wide-$mb.folded"
[ -s "$work/$in.gz" ] || gzip -1 -c "$work/$in" >"$work/$in.gz"
run "$in.gz" "cgcost --format=tsv F.gz" "'$tools/cgcost' --format=tsv '$work/$in.gz' >/dev/null"
run "$in.gz" "gzip -dc F.gz | cgcost" "gzip -dc '$work/$in.gz' | '$tools/cgcost' --format=tsv >/dev/null"
# a gmon.out of a program with 200 MB of code (50 million histogram bins,
# a few thousand with samples), against gprof
gmon_huge=
if { "$gen" program 300 && printf '__asm__ (".text\\n.globl huge_blob\\nhuge_blob:\\n.skip 200000000, 0x90\\nret\\n");\n'; } >"$work/gmonhuge.c" \
   && $cc -pg -O1 -o "$work/gmonhuge" "$work/gmonhuge.c" 2>/dev/null; then
  rm -rf "$work/gmon-huge"; mkdir -p "$work/gmon-huge"
  (cd "$work/gmon-huge" && "$work/gmonhuge" 30 >/dev/null)
  run "gmon-huge/gmon.out" "cgcost --executable" "'$tools/cgcost' --executable='$work/gmonhuge' --format=gprof '$work/gmon-huge/gmon.out' >/dev/null" "$reps"
  gmon_huge="$wall $rss_mb"
  if command -v gprof >/dev/null; then
    run "gmon-huge/gmon.out" "gprof -b" "gprof -b '$work/gmonhuge' '$work/gmon-huge/gmon.out' >/dev/null" "$reps"
    gmon_huge="$gmon_huge $wall $rss_mb"
  fi
fi

# Scaling (DESIGN §7: linear in the size of its input, 10x input => at
# most 11x time).  The generator's tenfold profile is 10.2 times the
# bytes, and the XML between stages grows by 11 to 11.2 times (ids and
# numbers get longer), so each stage's time ratio is taken per 10x of the
# bytes it reads: time ratio x 10 / input ratio.
small=$((mb / 10))
echo
printf '#      %-24s %8s %8s %8s\n' stage input_x time_x per_10x
for stage in merge cycles cost tree; do
  eval "a=\$${stage}_$small b=\$${stage}_$mb sa=\$${stage}_size_$small sb=\$${stage}_size_$mb"
  grow=$(ratio "$sb" "$sa") slower=$(ratio "$b" "$a")
  # from the measured figures, not the rounded ratios
  per10=$(awk -v a="$a" -v b="$b" -v sa="$sa" -v sb="$sb" 'BEGIN { printf "%.2f", (a > 0 && sb > 0 ? b / a * 10 * sa / sb : 0) }')
  printf 'SCALE  %-24s %8s %8s %8s\n' "cg$stage" "$grow" "$slower" "$per10"
  eval "per10_$stage=$per10"
done

# ---- targets ----
echo
target "cgmerge time / wc -l time (callgrind, $size_mb MB)" "$(ratio "$merge" "$wc")" 10
[ -n "$annotate" ] && target "cgmerge time / callgrind_annotate time" "$(ratio4 "$merge" "$annotate")" 0.02
target "cgmerge peak memory / file size" "$(ratio "$merge_rss" "$size_mb")" 0.5
target "pipeline time / cgmerge time" "$(ratio "$pipeline" "$merge")" 4
target "cgcost --base of two / cgmerge of one ($size_mb MB each)" "$(ratio "$diff_time" "$merge_full")" 2.5
# 200 MB/s: at most a second per 200 MB (CPU time too: on a loaded machine
# the wall time measures the others' load)
target "perf script ($perf_mb MB): cgmerge wall s per 200 MB" "$(awk -v w="$perf_wall" -v m="$perf_mb" 'BEGIN { printf "%.3f", w * 200 / m }')" 1
target "perf script ($perf_mb MB): cgmerge CPU s per 200 MB" "$(awk -v w="$perf_cpu" -v m="$perf_mb" 'BEGIN { printf "%.3f", w * 200 / m }')" 1
[ -n "$zst" ] && target "cgmerge F.zst / zstd -dc F.zst | cgmerge time" "$(ratio "$zst" "$zst_pipe")" 1
for stage in merge cycles cost tree; do
  eval "target \"10x input: cg$stage time ratio (per 10x input bytes)\" \"\$per10_$stage\" 11"
done
target "2,000 cycles: cgcycles seconds" "$(ms "$cyc_cycles")" 1
target "2,000 cycles: cgcost seconds" "$(ms "$costc_cycles")" 1
target "7,500-member cycle: cgcycles seconds" "$(ms "$cyc_ring")" 1
target "7,500-member cycle: cgcost seconds" "$(ms "$costc_ring")" 1
[ "$dec_status_cycles" = 0 ] && target "2,000 cycles: decompose seconds" "$(ms "$dec_cycles")" 1
[ "$dec_status_ring" = 0 ] && target "7,500-member cycle: decompose seconds" "$(ms "$dec_ring")" 1
target "million-deep chain through every stage: failures" "$((1 - chain_ok))" 0
# one process each (cgcost --executable), as a gprof user runs it
set -- $gmon_small
[ $# = 2 ] && target "gmon.out, small program: cgcost / gprof time" "$(ratio "$1" "$2")" 1
set -- $gmon_big
[ $# = 2 ] && target "gmon.out, 3,000 functions: cgcost / gprof time" "$(ratio "$1" "$2")" 1
set -- $gmon_huge
if [ $# = 4 ]; then
  target "gmon.out, 200 MB of code: cgcost / gprof time" "$(ratio "$1" "$3")" 1
  # (no target was set for memory: printed to compare; gprof keeps 4 bytes a bin)
  printf 'RATIO  %-52s %10s\n' "gmon.out, 200 MB of code: cgcost / gprof peak memory" "$(ratio "$2" "$4")"
fi
# against gprof2dot, where it finished: cgtools must be ahead (ratio < 1)
if [ -n "${GPROF2DOT:-}" ]; then
  if [ "$g2d_small_status" = 0 ]; then
    target "pipeline / gprof2dot time (compiler, 1/10 size)" "$(ratio "$(eval echo "\$pipeline_$small")" "$g2d_small")" 1
  fi
  if [ "$g2d_status_cycles" = 0 ]; then
    target "2,000 cycles: decompose / gprof2dot time" "$(ratio "$dec_cycles" "$g2d_cycles")" 1
  fi
  if [ "$g2d_status_ring" = 0 ]; then
    target "7,500-member cycle: decompose / gprof2dot time" "$(ratio "$dec_ring" "$g2d_ring")" 1
  fi
fi
exit 0
