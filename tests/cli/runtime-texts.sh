#!/bin/sh
# What runtimes' profilers write that cgtools does not read, each named
# with the conversion or the recording it reads, where cgmerge said
# "unknown input format": gperftools' heap profiler's text (HEAPPROFILE
# with libtcmalloc: "heap profile: N: BYTES [N: BYTES] @ heapprofile",
# stacks of addresses, the process's maps), read through google-pprof
# --callgrind PROGRAM FILE (its in-use bytes as the event Hits), and V8's
# tick log (node --prof) and node --prof-process's report of it, for
# which node --cpu-prof writes what cgtools reads.  Made at test time;
# oracle for the heap: the bytes in use the profile's own header states,
# which the conversion's root holds in all.  Each part is skipped where
# its producer is missing (Debian: libgoogle-perftools-dev and
# google-perftools; nodejs), the test where both are.
. "${top_srcdir:-.}/tests/cli/common.sh"
ran=0

tcmalloc=$(ls /usr/lib/*/libtcmalloc.so.4 /usr/lib/libtcmalloc.so.4 2>/dev/null | head -n 1)
if [ -n "$tcmalloc" ] && command -v google-pprof >/dev/null 2>&1; then
  ran=$((ran + 1))
  cat >"$tmp/keep.c" <<'C'
#include <stdlib.h>
#include <string.h>
static void *kept[64];
static int n_kept;
__attribute__ ((noipa)) static void
grow (int depth)
{
  char *p = malloc (1000 * (size_t) depth);
  memset (p, depth, 1000 * (size_t) depth);
  kept[n_kept++] = p;
  if (depth > 1)
    grow (depth - 1);
}
int
main (void)
{
  grow (20);
  grow (10);
  return kept[0] == 0;
}
C
  ${CC:-cc} -O0 -g -o "$tmp/keep" "$tmp/keep.c" || fail "cannot compile the test program"
  (cd "$tmp" && HEAPPROFILE="$tmp/hp" LD_PRELOAD="$tcmalloc" ./keep >/dev/null 2>&1) || fail "the program under HEAPPROFILE"
  heap=$(ls "$tmp"/hp.*.heap 2>/dev/null | tail -n 1)
  [ -n "$heap" ] || fail "test set-up: HEAPPROFILE wrote no profile"
  expect 1 "$cgmerge" "$heap" \
    && expect_message "cgmerge: $heap:1: a gperftools heap profile (HEAPPROFILE with libtcmalloc), which cgtools does not read: google-pprof --callgrind PROGRAM FILE converts it"
  google-pprof --callgrind "$tmp/keep" "$heap" >"$tmp/heap.callgrind" 2>"$tmp/pprof.err" \
    || fail "google-pprof --callgrind: $(head -c 300 "$tmp/pprof.err")"
  # the header's bytes in use: "heap profile:    N:  BYTES [ ..." (the
  # program keeps 265000)
  bytes=$(awk 'NR == 1 { print $4; exit }' "$heap")
  [ "$bytes" -ge 265000 ] 2>/dev/null || fail "test set-up: the profile holds '$bytes' bytes in use, fewer than the program keeps"
  expect 0 "$cgcost" --format=tsv "$tmp/heap.callgrind" || true
  got=$(awk -F '\t' 'NR == 2 { print $4 }' "$tmp/out")
  [ "$got" = "$bytes" ] || fail "the conversion's total is '$got' bytes, the heap profile says $bytes"
  grep -q '^grow	' "$tmp/out" || fail "no grow in the conversion: $(head -5 "$tmp/out")"
else
  echo "gperftools' libtcmalloc or google-pprof is not installed: the heap profile skipped"
fi

if command -v node >/dev/null 2>&1; then
  ran=$((ran + 1))
  printf '%s\n' 'function fib (n) { return n < 2 ? n : fib (n - 1) + fib (n - 2); }' \
    'let s = 0; for (let i = 0; i < 30; i++) s += fib (20); console.log (s);' >"$tmp/fib.js"
  (cd "$tmp" && node --prof fib.js >/dev/null 2>&1) || fail "node --prof"
  log=$(ls "$tmp"/isolate-*.log 2>/dev/null | head -n 1)
  if [ -n "$log" ]; then
    expect 1 "$cgmerge" "$log" \
      && expect_message "cgmerge: $log:1: V8's tick log (node --prof), which cgtools does not read: profile with node --cpu-prof"
    (cd "$tmp" && node --prof-process "$log" >"$tmp/processed.txt" 2>/dev/null) || fail "node --prof-process"
    expect 1 "$cgmerge" "$tmp/processed.txt" \
      && expect_message "cgmerge: $tmp/processed.txt:1: what node --prof-process prints of V8's tick log, which cgtools does not read"
  else
    fail "test set-up: node --prof wrote no isolate log"
  fi
else
  echo "node is not installed: V8's tick log skipped"
fi
[ "$ran" -gt 0 ] || skip "neither gperftools' heap profiler nor node is installed"
finish
