#!/bin/sh
# A gmon.out whose histogram holds no sample while it holds calls is
# said to be so, as gprof's flat profile says "no time accumulated":
# xz 5.4 built with -pg, compressing with -T4, left 15 s of CPU time in
# threads that block every signal (liblzma's), profil(3)'s SIGPROF went
# to the main thread waiting in libc, and cgtree printed an empty tree
# (every line below 1% of 0 s) without a word.  The oracle is gprof -b
# on the same file: the warning where it says "no time accumulated" (the
# worker blocks signals), none where it has time (the worker does not).
. "${top_srcdir:-.}/tests/cli/common.sh"
cc=${CC:-cc}
GPROF=$(command -v gprof) || skip "no gprof"
cat >"$tmp/p.c" <<'CEOF'
#include <pthread.h>
#include <signal.h>
volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (unsigned long i) { for (int k = 0; k < 200; k++) sink += i * k; }
__attribute__ ((noinline)) void work (void) { for (unsigned long i = 0; i < 2000000; i++) leaf (i); }
static void *worker (void *arg) { (void) arg; work (); return NULL; }
int main (int argc, char **argv)
{
  (void) argv;
  sigset_t all, old;
  sigfillset (&all);
  /* as liblzma's mythread_create: the thread starts with every signal blocked */
  if (argc > 1)
    pthread_sigmask (SIG_SETMASK, &all, &old);
  pthread_t t;
  if (pthread_create (&t, NULL, worker, NULL) != 0)
    return 1;
  if (argc > 1)
    pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_join (t, NULL);
  return 0;
}
CEOF
(cd "$tmp" && "$cc" -O1 -pg -pthread -o p p.c) 2>"$tmp/cc.err" || skip "cannot build with -pg: $(head -3 "$tmp/cc.err")"
said="the histogram holds no samples"
for mode in block open; do
  rm -f "$tmp/gmon.out"
  if [ $mode = block ]; then (cd "$tmp" && ./p block); else (cd "$tmp" && ./p); fi || fail "the program failed"
  [ -s "$tmp/gmon.out" ] || skip "no gmon.out written"
  "$GPROF" -b "$tmp/p" "$tmp/gmon.out" >"$tmp/gprof.$mode" 2>/dev/null || fail "gprof -b"
  grep -q 'no time accumulated' "$tmp/gprof.$mode" && none=1 || none=0
  [ $mode = block ] && [ $none = 0 ] && skip "gprof found time in a thread that blocks SIGPROF: $(sed -n 5,6p "$tmp/gprof.$mode")"
  for tool in "$cgtree" "$cgcost --format=text" "$cgmerge"; do
    # shellcheck disable=SC2086
    expect 0 $tool --executable="$tmp/p" "$tmp/gmon.out" || continue
    if [ $none = 1 ]; then
      expect_message "$tmp/gmon.out: $said (gprof: \"no time accumulated\"), so every time reads 0"
    elif grep -q -F "$said" "$tmp/err"; then
      fail "$tool: warns of no samples where gprof has time: $(sed -n 5,6p "$tmp/gprof.$mode")"
    fi
  done
  # gprof's own report is unchanged: stdout byte for byte
  expect 0 "$cgcost" --format=gprof --executable="$tmp/p" "$tmp/gmon.out" && cmp -s "$tmp/gprof.$mode" "$tmp/out" \
    || fail "cgcost --format=gprof ($mode): $(diff "$tmp/gprof.$mode" "$tmp/out" | head -5)"
done
finish
