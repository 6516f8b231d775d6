#!/bin/sh
# Call chains perf cut at its limit (kernel.perf_event_max_stack when
# recorded, 127 by default; perf script --max-stack when printed) lose
# their outer frames, main among them, and nothing in perf script's text
# says so: cgmerge warns where chains pile up at exactly 127 frames.
# Oracles: samples written here, whose lengths are known; and a program
# recursing 300 deep recorded with frame pointers, whose chains of the
# kernel's limit are counted in perf script's output by awk.  Skipped
# (77) without awk.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v awk >/dev/null 2>&1 || skip "awk missing"
# samples N L...: one sample of each length L, frames f1 (the leaf) to fL
samples () {
  for len in "$@"; do
    printf 'prog 10/10     250000 cpu-clock: \n'
    i=1
    while [ "$i" -le "$len" ]; do
      printf '\t%16x f%d+0x4 (/tmp/prog)\n' $((4096 + i * 16)) "$i"
      i=$((i + 1))
    done
    printf '\n'
  done
}
samples 127 127 10 127 >"$tmp/cut.perf"
expect 0 "$cgcost" --format=tsv "$tmp/cut.perf" || fail "cgcost cut.perf"
expect_message "cut.perf: 3 of 4 samples have call chains of exactly 127 frames, perf's default limit"
expect_message "perf probably cut them"
# a few longer, as perf script prints a DWARF-unwound chain cut at 127
# frames of the program under the kernel's frames
samples 127 127 127 133 10 >"$tmp/kernel.perf"
expect 0 "$cgcost" --format=tsv "$tmp/kernel.perf" || fail "cgcost kernel.perf"
expect_message "kernel.perf: 3 of 5 samples have call chains of exactly 127 frames"
# depths that spread: one sample at the limit, or fewer there than one
# frame shorter or longer, or none; a recursion to one depth of its own
for lengths in "127 40 12" "130 130 129 129 129 20" "100 100 100 5" "127 127 126 126 126" "127 127 128 128 200" \
  "306 306 306 306"; do
  # shellcheck disable=SC2086
  samples $lengths >"$tmp/natural.perf"
  expect 0 "$cgcost" --format=tsv "$tmp/natural.perf" || fail "cgcost natural.perf ($lengths)"
  grep -q 'cut them' "$tmp/err" && fail "chains of $lengths frames were taken for cut: $(cat "$tmp/err")"
done
# inlined frames do not count: the limit is the kernel's, on real frames
{
  samples 126 126
  printf 'prog 10/10     250000 cpu-clock: \n\t%16x g+0x4 (inlined)\n' 4000
  samples 126 | sed 1d
} >"$tmp/inlined.perf"
expect 0 "$cgcost" --format=tsv "$tmp/inlined.perf" || fail "cgcost inlined.perf"
grep -q 'cut them' "$tmp/err" && fail "an inlined frame counted: $(cat "$tmp/err")"

# a real recording: the kernel cuts a frame-pointer chain at its limit
command -v cc >/dev/null 2>&1 && command -v perf >/dev/null 2>&1 || finish
max=$(cat /proc/sys/kernel/perf_event_max_stack 2>/dev/null) || finish
[ "$max" -eq 127 ] || finish
cat >"$tmp/deep.c" <<'C'
volatile double sink;
static double __attribute__ ((noinline)) spin (int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (double) i / (i + 3);
  return s;
}
static double __attribute__ ((noinline)) deep (int d)
{
  double r = d == 0 ? spin (20000) : deep (d - 1);
  sink = r;
  return r + 1;
}
int main (void)
{
  for (int k = 0; k < 2000; k++)
    sink = deep (300);
  return 0;
}
C
cc -O1 -fno-omit-frame-pointer -o "$tmp/deep" "$tmp/deep.c" || finish
perf record -q -g -e cpu-clock -F 1000 -o "$tmp/deep.data" "$tmp/deep" >"$tmp/err" 2>&1 \
  || { echo "note: perf record cannot record here: $(head -c 200 "$tmp/err")"; finish; }
# the samples whose chains perf script prints with 127 frames, of all
count=$(perf script -i "$tmp/deep.data" -F comm,ip 2>/dev/null \
  | awk '/^[^\t]/ { if (s) c[n]++; s = 1; n = 0; next } /^\t/ { n++ }
         END { if (s) c[n]++; for (k in c) t += c[k]; print c[127] + 0 " of " t " samples" }')
expect 0 "$cgcost" --format=tsv "$tmp/deep.data" || fail "cgcost deep.data"
expect_message "deep.data: $count have call chains of exactly 127 frames"
finish
