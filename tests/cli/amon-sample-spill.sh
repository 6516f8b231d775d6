#!/bin/sh
# libamon: a context that calls more routines than its caches hold (two
# near slots and a far cache of 16) spills, and only then are its
# transitions in the machine's transition table (amon-fsm.c, spill); a
# call that misses its caches finds them there.  A program whose
# dispatcher calls 40 leaves at random, from two contexts (called by main
# and by a routine main calls), and calls three leaves only from a third
# (a context that never spills), counts its own calls of each leaf by
# each caller, the oracle; the profile's arcs must equal those counts,
# built with the flags amon.pc gives and with plain -pg, with the
# sampling clock and the default one.  A transition lost when the caches
# spilled, or one taken from another context's, changes the arcs.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode is for x86-64" ;; esac
libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
[ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
CC=${CC:-cc}
pg=$(PKG_CONFIG_PATH="$top_builddir/src/amon" pkg-config --cflags amon 2>/dev/null) || pg="-pg -mfentry"
pg=$(echo $pg)

cat >"$tmp/spill.c" <<'CEOF'
#include <stdio.h>
#include <stdlib.h>

#define N 40
enum { MAIN, DISPATCH, VIA, FEW, CALLERS };
static const char *const name[CALLERS] = { "main", "dispatch", "via", "few" };
static unsigned long counts[CALLERS][N];
static int cur = MAIN;
static unsigned long seed = 1;

static unsigned
rnd (unsigned n)
{
  seed = seed * 6364136223846793005ul + 1442695040888963407ul;
  return (unsigned) (seed >> 33) % n;
}

/* each leaf a routine of its own (its own counter: not folded into
 * another by identical-code folding), not inlined nor cloned */
#if defined __GNUC__ && !defined __clang__
#define NOINLINE __attribute__ ((noinline, noipa))
#else
#define NOINLINE __attribute__ ((noinline))
#endif
#define LEAF(k) NOINLINE void leaf##k (void) { counts[cur][k]++; }
#define TEN(d) LEAF (d##0) LEAF (d##1) LEAF (d##2) LEAF (d##3) LEAF (d##4) LEAF (d##5) LEAF (d##6) LEAF (d##7) \
  LEAF (d##8) LEAF (d##9)
LEAF (0) LEAF (1) LEAF (2) LEAF (3) LEAF (4) LEAF (5) LEAF (6) LEAF (7) LEAF (8) LEAF (9)
TEN (1) TEN (2) TEN (3)
#define P(d) leaf##d##0, leaf##d##1, leaf##d##2, leaf##d##3, leaf##d##4, leaf##d##5, leaf##d##6, leaf##d##7, \
  leaf##d##8, leaf##d##9
static void (*const leaves[N]) (void) = { leaf0, leaf1, leaf2, leaf3, leaf4, leaf5, leaf6, leaf7, leaf8, leaf9,
                                          P (1), P (2), P (3) };

NOINLINE void
dispatch (unsigned n)
{
  int caller = cur;
  cur = DISPATCH;
  for (unsigned i = 0; i < n; i++)
    leaves[rnd (N)] ();
  cur = caller;
}

NOINLINE void
via (unsigned n)
{
  int caller = cur;
  cur = VIA;
  for (unsigned i = 0; i < n; i++)
    leaves[rnd (N)] ();
  dispatch (n);
  cur = caller;
}

NOINLINE void
few (unsigned n)
{
  int caller = cur;
  cur = FEW;
  for (unsigned i = 0; i < n; i++)
    leaves[rnd (3)] ();
  cur = caller;
}

int
main (int argc, char **argv)
{
  seed = argc > 1 ? strtoul (argv[1], NULL, 10) : 1;
  for (int r = 0; r < 2000; r++)
    {
      dispatch (20);
      via (10);
      few (10);
    }
  for (int a = 0; a < CALLERS; a++)
    for (int b = 0; b < N; b++)
      if (counts[a][b])
        printf ("%s\tleaf%d\t%lu\n", name[a], b, counts[a][b]);
  return 0;
}
CEOF

built=0
for flags in "$pg" "-pg"; do
  name=spill$(echo "$flags" | tr -d ' =')
  $CC -O2 $flags -o "$tmp/$name" "$tmp/spill.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" \
    >"$tmp/build.log" 2>&1 || { echo "cannot build with $CC $flags: $(head -c 300 "$tmp/build.log")"; continue; }
  built=$((built + 1))
  for seed in 1 49; do
    for clock in sample cpu; do
      what="$CC $flags, seed $seed, AMON_CLOCK=$clock"
      rm -f "$tmp/amon.out"
      AMON_CLOCK=$clock AMON_OUT="$tmp/amon.out" "$tmp/$name" "$seed" >"$tmp/truth.raw" 2>"$tmp/stderr" \
        || { fail "$what: exit $?: $(head -c 300 "$tmp/stderr")"; continue; }
      sort "$tmp/truth.raw" >"$tmp/truth"
      # every leaf from dispatch and via, three from few
      [ "$(wc -l <"$tmp/truth")" -eq 83 ] || { fail "$what: the program made $(wc -l <"$tmp/truth") arcs, not 83"; continue; }
      amon_arcs_counted "$what" '^leaf[0-9]+$'
    done
  done
done
[ "$built" -gt 0 ] || skip "no compiler builds -pg programs here"
finish
