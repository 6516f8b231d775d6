#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) in the -pg mode: the
# common call, which `__fentry__` and `mcount` make in registers without
# calling the monitor's C code (amon-mcount-x86_64.S, SAMPLED), enters the
# contexts the machine's C code does.  A program whose ten routines call
# each other at random (a seeded generator; direct recursion, routines
# that call one, two, three and ten others, so that transitions are found
# in a context's near slots, in its far cache and in neither) counts its
# own calls of each routine by each caller, the oracle; the profile's arcs
# must equal those counts, built with the flags amon.pc gives
# (`__fentry__`, returns told) and with plain -pg (`mcount`), by gcc and
# by clang where they are here, and with the default clock too.  A wrong
# frame pushed, a recursion counted as an entry or a frame popped that
# was live changes the arcs.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode is for x86-64" ;; esac
libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
[ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
CC=${CC:-cc}
pg=$(PKG_CONFIG_PATH="$top_builddir/src/amon" pkg-config --cflags amon 2>/dev/null) || pg="-pg -mfentry"
pg=$(echo $pg)

cat >"$tmp/calls.c" <<'CEOF'
#include <stdio.h>
#include <stdlib.h>

#define N 10
#define MAIN N
/* each routine a routine of its own, not inlined nor cloned under
 * another name (gcc's f6.isra.0) */
#if defined __GNUC__ && !defined __clang__
#define F(k) __attribute__ ((noinline, noipa)) void f##k (int d)
#else
#define F(k) __attribute__ ((noinline)) void f##k (int d)
#endif
void f0 (int), f1 (int), f2 (int), f3 (int), f4 (int), f5 (int), f6 (int), f7 (int), f8 (int), f9 (int);
static unsigned long counts[N + 1][N];
static int cur = MAIN;
static unsigned long seed;
static unsigned
rnd (unsigned n)
{
  seed = seed * 6364136223846793005ul + 1442695040888963407ul;
  return (unsigned) (seed >> 33) % n;
}
/* the caller's count of this call, kept in the routine itself (no call);
 * the code after the calls keeps them from being tail calls */
#define ENTER(k) int caller = cur; counts[caller][k]++; cur = k
#define LEAVE cur = caller
#define KIDS for (unsigned i = d < 24 ? rnd (3) : 0; i > 0; i--)

F(0) { ENTER (0); KIDS f1 (d + 1); LEAVE; }
F(1) { ENTER (1); KIDS switch (rnd (2)) { case 0: f0 (d + 1); break; default: f2 (d + 1); } LEAVE; }
F(2) { ENTER (2); KIDS switch (rnd (10)) { case 0: f0 (d + 1); break; case 1: f1 (d + 1); break; case 2: f2 (d + 1); break;
       case 3: f3 (d + 1); break; case 4: f4 (d + 1); break; case 5: f5 (d + 1); break; case 6: f6 (d + 1); break;
       case 7: f7 (d + 1); break; case 8: f8 (d + 1); break; default: f9 (d + 1); } LEAVE; }
F(3) { ENTER (3); KIDS switch (rnd (3)) { case 0: f3 (d + 1); break; case 1: f4 (d + 1); break; default: f3 (d + 2); } LEAVE; }
F(4) { ENTER (4); KIDS switch (rnd (3)) { case 0: f5 (d + 1); break; case 1: f6 (d + 1); break; default: f7 (d + 1); } LEAVE; }
F(5) { ENTER (5); KIDS f4 (d + 1); LEAVE; }
F(6) { ENTER (6); LEAVE; }
F(7) { ENTER (7); KIDS switch (rnd (4)) { case 0: f8 (d + 1); break; case 1: f9 (d + 1); break; case 2: f6 (d + 1); break;
       default: f2 (d + 1); } LEAVE; }
F(8) { ENTER (8); KIDS f8 (d + 1); LEAVE; }
F(9) { ENTER (9); KIDS switch (rnd (2)) { case 0: f3 (d + 1); break; default: f7 (d + 1); } LEAVE; }

int
main (int argc, char **argv)
{
  seed = argc > 1 ? strtoul (argv[1], NULL, 10) : 1;
  for (int r = 0; r < 20000; r++)
    switch (rnd (5))
      {
      case 0: f0 (0); break;
      case 1: f2 (0); break;
      case 2: f3 (0); break;
      case 3: f7 (0); break;
      default: f9 (0);
      }
  for (int a = 0; a <= N; a++)
    for (int b = 0; b < N; b++)
      if (counts[a][b])
        {
          if (a == MAIN)
            printf ("main\tf%d\t%lu\n", b, counts[a][b]);
          else
            printf ("f%d\tf%d\t%lu\n", a, b, counts[a][b]);
        }
  return 0;
}
CEOF

compilers=$CC
command -v clang >/dev/null 2>&1 && compilers="$compilers clang"
built=0
for comp in $compilers; do
  for flags in "$pg" "-pg"; do
    # clang has no -minstrument-return=call: amon.pc's portable flags
    case $comp in clang) [ "$flags" = "$pg" ] && flags="-pg -mfentry" ;; esac
    name=$(basename "$comp")$(echo "$flags" | tr -d ' =')
    $comp -O2 $flags -o "$tmp/$name" "$tmp/calls.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" \
      >"$tmp/build.log" 2>&1 || { echo "cannot build with $comp $flags: $(head -c 300 "$tmp/build.log")"; continue; }
    built=$((built + 1))
    for seed in 1 7 2024; do
      for clock in sample cpu; do
        what="$comp $flags, seed $seed, AMON_CLOCK=$clock"
        rm -f "$tmp/amon.out"
        AMON_CLOCK=$clock AMON_OUT="$tmp/amon.out" "$tmp/$name" "$seed" >"$tmp/truth.raw" 2>"$tmp/stderr" \
          || { fail "$what: exit $?: $(head -c 300 "$tmp/stderr")"; continue; }
        sort "$tmp/truth.raw" >"$tmp/truth"
        [ "$(wc -l <"$tmp/truth")" -gt 20 ] || { fail "$what: the program made only $(wc -l <"$tmp/truth") arcs"; continue; }
        amon_arcs_counted "$what" '^f[0-9]$'
      done
    done
  done
done
[ "$built" -gt 0 ] || skip "no compiler builds -pg programs here"
finish
