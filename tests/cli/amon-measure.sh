#!/bin/sh
# The default clock's cost per call, checked by the run's own samples
# (src/amon/amon-measure.h).  A call-heavy program runs until its thread
# has had 1.5 s of CPU time (some 375 samples at the usual 250 Hz tick),
# so that the samples set the program's time:
#  - the file records them and every view says so;
#  - the profile's total lies within two standard errors of the CPU time
#    it measured times the share of the samples that fell in the
#    program's code (the oracle: the counts the note prints, not the
#    code's arithmetic), to the note's rounding;
#  - one correction window in four, at random, after a thread's first
#    4,096, is blind (amon-blind.h): where the run had the samples (800
#    or more: some 150 in the blind windows) the note gives their calls
#    and returns (a quarter of those after the first 4,096 windows of
#    4,096, to a few per cent over the run's thousands), CPU time and
#    samples, and the total is the blind windows' CPU time per event
#    times the program's share of their samples times all the events;
#  - the timers are each thread's own: a thread asleep in nanosleep(2)
#    meanwhile is never interrupted (a process-wide timer's signal would
#    be delivered to it, and the sleep would fail with EINTR);
#  - a child of fork makes none: it resets SIGPROF to its default action,
#    as a program may before it execs, and a thread it starts runs as
#    long, without being killed by a sample.
. "${top_srcdir:-.}/tests/cli/common.sh"
lib="$top_builddir/src/amon/libamon.la"
[ -f "$lib" ] || skip "libamon was not built"
LIBTOOL=${LIBTOOL:-"$top_builddir/libtool"}
grep -q '^flags.* constant_tsc' /proc/cpuinfo 2>/dev/null || skip "no invariant time-stamp counter: the default clock reads the CPU clock, without samples"

cat >"$tmp/heavy.c" <<'EOF'
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "busy.h"
static int slept;
__attribute__ ((noinline)) static void *sleeper (void *arg)
{
  (void) arg;
  struct timespec ts = { 0, 600000000 };
  slept = nanosleep (&ts, 0) == 0 ? 1 : errno == EINTR ? -1 : -2;
  return 0;
}
int main (void)
{
  pthread_t t;
  double main_cpu = 1.5, child_cpu = 0.4;
  pthread_create (&t, 0, sleeper, 0);
  work (&main_cpu);
  pthread_join (t, 0);
  if (slept != 1)
    return 3;
  pid_t pid = fork ();
  if (pid == 0)
    {
      signal (SIGPROF, SIG_DFL);
      pthread_create (&t, 0, work, &child_cpu);
      pthread_join (t, 0);
      _exit (0);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 4;
  return 0;
}
EOF
${CC:-cc} -O1 -finstrument-functions -pthread -I"$top_srcdir/tests/amon" -c -o "$tmp/heavy.o" "$tmp/heavy.c" || skip "cannot compile"
$LIBTOOL --mode=link --tag=CC ${CC:-cc} -static -pthread -o "$tmp/heavy" "$tmp/heavy.o" "$lib" >"$tmp/link.log" 2>&1 \
  || { cat "$tmp/link.log"; fail "link"; finish; }
(cd "$tmp" && AMON_OUT="$tmp/heavy.out" ./heavy)
rc=$?
[ $rc -eq 3 ] && fail "the sleeping thread's nanosleep was interrupted (or failed)"
[ $rc -eq 4 ] && fail "the child of fork that reset SIGPROF did not exit 0 (killed by a sample?)"
[ $rc -eq 0 ] || fail "heavy exited $rc"

# the views print the note's summary, and the report of the inputs
# (cgmerge --format=text) the note in full, with what the samples gave
for view in "$cgcost --format=text" "$cgtree" "$cgcycles --format=text"; do
  $view "$tmp/heavy.out" >"$tmp/view.txt" 2>&1 || fail "$view"
  notes "$tmp/view.txt" | grep -q "instrumentation cost taken out: [0-9.e+-]* s of [0-9.e+-]* s measured ([0-9]* calls and returns).* (in full: cgmerge --format=text)$" \
    || fail "$view does not summarise the note: $(grep -i note "$tmp/view.txt")"
done
for view in "$cgmerge --format=text"; do
  $view "$tmp/heavy.out" >"$tmp/view.txt" 2>&1 || fail "$view"
  notes "$tmp/view.txt" | grep -q "the run's own samples, [0-9]* of [0-9]* in the program's code, \(and in its blind windows ([0-9]* of the calls and returns, [0-9.e+-]* s of CPU time, where the hooks read no counter) [0-9]* of [0-9]*, \)\?give the program's time to within [0-9]*%\(, and the calibrations agree\|, and the calibrations do not: the total was moved [0-9.e-]* s \(down\|up\) to it\| (libamon(3), AMON_CLOCK)\)" \
    || fail "$view does not say what the samples gave: $(grep -i note "$tmp/view.txt")"
done
"$cgmerge" --format=text "$tmp/heavy.out" >"$tmp/heavy.txt" || fail "cgmerge heavy"
# (the sleeping thread has no blind windows: the estimate is the others')
notes "$tmp/heavy.txt" | grep "^Note: \(the total \(of [0-9]* of the [0-9]* threads (those whose blind windows had the samples) \)\?is an estimate\|instrumentation cost\)" >"$tmp/note" || fail "no note"
# X s of Y s measured, N of M samples in the program's code: the total,
# Y - X, lies within two standard errors of Y times the program's share
# of the samples, 2 Y sqrt(f (1 - f) / M) with f = (N + 1) / (M + 2)
sed 's/.*taken out: \([0-9.e+-]*\) s of \([0-9.e+-]*\) s measured.*own samples, \([0-9]*\) of \([0-9]*\) in.*/\1 \2 \3 \4/' "$tmp/note" >"$tmp/nums"
read -r x y n m <"$tmp/nums" || fail "cannot read the note: $(cat "$tmp/note")"
if grep -q "blind windows" "$tmp/note"; then
  # the blind windows: B events of E, C s of CPU time, N of M samples in
  # the program's code there; the main thread's total (the sleeper and
  # the child have no samples of their own) is C / B * E * f with
  # f = (N + 1) / (M + 2), to the note's rounding of C (4 digits), less
  # what of the thread's time fell outside main (before it, in the C
  # library's start-up and exit: 16-41 us in runs here, 263 us in one on
  # a loaded machine, 0.54% of a total the program's 10 samples of 338
  # in the blind windows made small): within 1 ms
  total=$("$cgcost" --format=tsv "$tmp/heavy.out" | awk -F '\t' '$1 == "main" { print $4 }')
  sed 's/.*taken out: \([0-9.e+-]*\) s of \([0-9.e+-]*\) s measured (\([0-9]*\) calls and returns.*blind windows (\([0-9]*\) of the calls and returns, \([0-9.e+-]*\) s of CPU time, where the hooks read no counter) \([0-9]*\) of \([0-9]*\),.*/\1 \2 \3 \4 \5 \6 \7/' \
    "$tmp/note" >"$tmp/blind"
  read -r x y e b c n m <"$tmp/blind" || fail "cannot read the blind windows in the note: $(cat "$tmp/note")"
  awk -v t="$total" -v e="$e" -v b="$b" -v c="$c" -v n="$n" -v m="$m" 'BEGIN {
    want = c / b * e * (n + 1) / (m + 2)
    printf "blind windows: %d of %d calls and returns, %s s, %d of %d samples in the program: main %.6f s, they give %.6f s\n", b, e, c, n, m, t, want
    after = e - 4096 * 4096
    exit !(b >= 0.2 * after && b <= 0.3 * after && m >= 100 && t >= want * 0.999 - 0.001 && t <= want * 1.001) }' \
    || fail "the total is not the blind windows' estimate, or they are not a quarter of the run: $(cat "$tmp/note")"
elif [ "$m" -ge 800 ]; then
  fail "$m samples, and no blind windows set the total: $(cat "$tmp/note")"
else
awk -v x="$x" -v y="$y" -v n="$n" -v m="$m" 'BEGIN {
  f = (n + 1) / (m + 2); e = 2 * sqrt (f * (1 - f) / m)
  printf "taken out %s s of %s s; samples %d of %d in the program: total %.4f, the samples allow %.4f to %.4f\n", x, y, n, m, y - x, y * (n / m - e), y * (n / m + e)
  # the note rounds X and Y to 3 digits
  exit !(m >= 100 && (y - x) / y >= n / m - e - 0.007 && (y - x) / y <= n / m + e + 0.007) }' \
  || fail "the profile's total is not within the samples' error: $(cat "$tmp/note")"
fi
# a hostile CALIBRATION record: sample counts that sum past 2^64 and the
# most negative clock units moved are refused as samples, not printed
# (nor overflowed: -INT64_MIN is undefined)
if command -v python3 >/dev/null 2>&1; then
  python3 - "$tmp/heavy.out" "$tmp/hostile.out" <<'EOF' || fail "cannot patch the calibration record"
import struct, sys
data = bytearray (open (sys.argv[1], 'rb').read ())
pos = struct.unpack_from ('<I', data, 12)[0]
while pos + 16 <= len (data):
    tag, _, length = struct.unpack_from ('<IIQ', data, pos)
    if tag == 6 and length >= 80:
        struct.pack_into ('<QQQQ', data, pos + 16 + 48, 2**64 - 1, 2, 2**63, 1)
        open (sys.argv[2], 'wb').write (data)
        sys.exit (0)
    if tag == 0:
        break
    pos += 16 + length
sys.exit (1)
EOF
  "$cgcost" --format=text "$tmp/hostile.out" >"$tmp/hostile.txt" 2>&1 || fail "cgcost on a hostile calibration record: $(cat "$tmp/hostile.txt")"
  grep -q "own samples" "$tmp/hostile.txt" && fail "counts that wrap were taken as samples: $(grep Note "$tmp/hostile.txt")"
fi
finish
