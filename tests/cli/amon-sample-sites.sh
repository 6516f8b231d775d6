#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) in the -pg mode on a
# program of many call sites and many contexts: which frame made a call
# from a return address that the top frame's context has not seen is
# found by a walk up the stack (amon-walk.h), which the hooks' common C
# code makes itself from what the thread knows of the call sites and
# the slow way makes otherwise.  A program of 60 routines, each calling
# others from 8 call sites at random to a depth of 9 (some 100,000
# contexts in 270,000 calls, so that most contexts' first call needs a
# walk), every seventh routine calling back through qsort(3), every
# fifth moving its stack pointer down with alloca(3) between its calls
# (so that returned callees' slots still hold their return addresses
# above the next call's), and one argument passed on the stack, counts
# its own calls of each routine by each caller, the oracle; the
# profile's arcs must equal those counts, built with amon.pc's flags
# (`__fentry__`) and with plain -pg (`mcount`, frame pointers), for
# three seeds.  A walk that took the wrong frame for the caller, or a
# site learnt by the wrong context, changes the arcs.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode is for x86-64" ;; esac
libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
[ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
CC=${CC:-cc}
pg=$(PKG_CONFIG_PATH="$top_builddir/src/amon" pkg-config --cflags amon 2>/dev/null) || pg="-pg -mfentry"
pg=$(echo $pg)

# the program, written by awk: N routines of K call sites each
awk -v n=60 -v k=8 'BEGIN {
  print "#include <alloca.h>\n#include <stdio.h>\n#include <stdlib.h>"
  print "#if defined __GNUC__ && !defined __clang__\n#define ATTR __attribute__ ((noinline, noipa))\n#else\n#define ATTR __attribute__ ((noinline))\n#endif"
  printf "#define N %d\n#define MAIN N\n#define CMP (N + 1)\n", n
  for (i = 0; i < n; i++)
    printf "void f%d (int, int, int, int, int, int, int);\n", i
  print "static unsigned long counts[N + 2][N];\nstatic int cur = MAIN;\nstatic unsigned long seed;\nstatic volatile int sink;"
  print "static unsigned rnd (unsigned m) { seed = seed * 6364136223846793005ul + 1442695040888963407ul; return (unsigned) (seed >> 33) % m; }"
  print "/* the caller of each call counted in the routine itself */"
  print "#define ENTER(k) int caller = cur; counts[caller][k]++; cur = k"
  print "#define LEAVE cur = caller"
  print "ATTR static int cmp (const void *x, const void *y) {"
  print "  int u = *(const int *) x, v = *(const int *) y;"
  print "  if (u == 3) { int caller = cur; cur = CMP; f5 (8, u, v, 0, 0, 0, 0); cur = caller; }"
  print "  return (u > v) - (u < v);\n}"
  for (i = 0; i < n; i++) {
    printf "ATTR void f%d (int d, int a, int b, int c, int e, int g, int h) {\n  ENTER (%d);\n  sink = a + b + c + e + g + h;\n", i, i
    printf "  for (unsigned r = d < 9 ? rnd (3) : 0; r > 0; r--) {\n"
    if (i % 5 == 1)
      printf "    char *s = alloca (16 + rnd (64)); s[0] = (char) r; sink = s[0];\n"
    if (i % 7 == 2)
      printf "    if (rnd (8) == 0) { int v[6] = { 5, 3, 1, 4, 2, 0 }; qsort (v, 6, sizeof v[0], cmp); }\n"
    printf "    switch (rnd (%d)) {\n", k
    for (j = 0; j < k; j++)
      printf "    case %d: f%d (d + 1, %d, r, d, %d, 1, 2); break;\n", j, (i * (2 * j + 3) + j * 7 + 1) % n, j, i
    printf "    }\n    sink++;\n  }\n  LEAVE;\n}\n"
  }
  print "int main (int argc, char **argv) {"
  print "  seed = argc > 1 ? strtoul (argv[1], NULL, 10) : 1;"
  print "  for (int r = 0; r < 20000; r++)"
  print "    switch (rnd (4)) {"
  print "    case 0: f0 (0, 0, 0, 0, 0, 0, 0); break;"
  print "    case 1: f1 (0, 0, 0, 0, 0, 0, 0); break;"
  print "    case 2: f2 (0, 0, 0, 0, 0, 0, 0); break;"
  print "    default: f3 (0, 0, 0, 0, 0, 0, 0);"
  print "    }"
  print "  for (int a = 0; a <= CMP; a++)"
  print "    for (int b = 0; b < N; b++)"
  print "      if (counts[a][b])"
  print "        {"
  print "          if (a == MAIN)"
  print "            printf (\"main\");"
  print "          else if (a == CMP)"
  print "            printf (\"cmp\");"
  print "          else"
  print "            printf (\"f%d\", a);"
  print "          printf (\"\\tf%d\\t%lu\\n\", b, counts[a][b]);"
  print "        }"
  print "  return 0;\n}"
}' >"$tmp/sites.c"

built=0
for flags in "$pg" "-pg"; do
  name=gcc$(echo "$flags" | tr -d ' =')
  $CC -O2 $flags -o "$tmp/$name" "$tmp/sites.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" \
    >"$tmp/build.log" 2>&1 || { echo "cannot build with $CC $flags: $(head -c 300 "$tmp/build.log")"; continue; }
  built=$((built + 1))
  for seed in 1 7 2024; do
    what="$CC $flags, seed $seed"
    rm -f "$tmp/amon.out"
    AMON_CLOCK=sample AMON_OUT="$tmp/amon.out" "$tmp/$name" "$seed" >"$tmp/truth.raw" 2>"$tmp/stderr" \
      || { fail "$what: exit $?: $(head -c 300 "$tmp/stderr")"; continue; }
    sort "$tmp/truth.raw" >"$tmp/truth"
    [ "$(wc -l <"$tmp/truth")" -gt 300 ] || { fail "$what: the program made only $(wc -l <"$tmp/truth") arcs"; continue; }
    grep -q '^cmp	f5	' "$tmp/truth" || { fail "$what: no call back through qsort"; continue; }
    "$cgmerge" --format=text "$tmp/amon.out" >"$tmp/summary" || { fail "$what: cannot read the profile"; continue; }
    contexts=$(sed -n 's/.* \([0-9,]*\) contexts\..*/\1/p' "$tmp/summary" | tr -d ,)
    [ "${contexts:-0}" -gt 50000 ] || { fail "$what: only ${contexts:-no} contexts"; continue; }
    amon_arcs_counted "$what, $contexts contexts" '^f[0-9]+$'
  done
done
[ "$built" -gt 0 ] || skip "no compiler builds -pg programs here"
finish
