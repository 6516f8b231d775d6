#!/bin/sh
# perf script prints no object for an inlined frame, and at a caller's
# address whose whole inline chain it printed ("98ac9
# __GI___libc_malloc+0x199 (inlined)" under _int_malloc, with no frame
# of malloc itself) no frame of that address names one either.  The
# frame's "+0x199" is its address less the start of the ELF symbol it
# lies in (malloc, at 0x98930 in libc.so.6's .dynsym), so the object is
# the one of the input's whose symbol table has a function starting
# there, where exactly one has.  Oracle: a program built here, the
# start of its function host by nm, and stacks written with it: the
# inline-only frame at host+0x10 is the program's; one whose start no
# object has, or past the end of the function there, stays in none.  Skipped (77) without cc or nm.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v cc >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 || skip "cc or nm missing"
cat >"$tmp/prog.c" <<'C'
int host (int x) { return x * 3 + 1; }
int other (int x) { return x - 2; }
int main (int argc, char **argv) { (void) argv; return host (argc) + other (argc); }
C
cc -O0 -o "$tmp/prog" "$tmp/prog.c" || skip "cc failed"
start=$(nm "$tmp/prog" | awk '$3 == "host" { print $1 }')
other=$(nm "$tmp/prog" | awk '$3 == "other" { print $1 }')
[ -n "$start" ] && [ -n "$other" ] || skip "nm names no host"
at=$(printf '%x' $((0x$start + 0x10)))
nowhere=$(printf '%x' $((0x$start + 1 + 0x10)))
{
  # helper inlined into host, whose frame perf left out
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s other+0x4 (%s)\n' "$(printf '%x' $((0x$other + 4)))" "$tmp/prog"
  printf '\t%16s helper+0x10 (inlined)\n' "$at"
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
  # a function named helper too, in another object
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s helper+0x4 (/usr/lib/libother.so)\n' 5004
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
  # host starts there, but is far shorter than 0x4000 bytes
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s far+0x4000 (inlined)\n' "$(printf '%x' $((0x$start + 0x4000)))"
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
  # no object has a function starting one byte after host
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s lost+0x10 (inlined)\n' "$nowhere"
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
} >"$tmp/stacks.perf"
expect 0 "$cgcost" --format=tsv "$tmp/stacks.perf" || fail "cgcost"
[ "$(total_of "$tmp/out" "helper [$tmp/prog]")" = 250000 ] \
  || fail "the inline-only frame at host+0x10 is not the program's: $(grep helper "$tmp/out")"
[ "$(total_of "$tmp/out" "helper [/usr/lib/libother.so]")" = 250000 ] \
  || fail "the other object's helper: $(grep helper "$tmp/out")"
[ "$(total_of "$tmp/out" lost)" = 250000 ] || fail "lost: $(grep lost "$tmp/out")"
expect 0 "$cgmerge" --format=text "$tmp/stacks.perf" || fail "cgmerge"
"$cgmerge" "$tmp/stacks.perf" >"$tmp/stacks.xml" 2>/dev/null
grep -q "^far	$(grep -o '<object id="[0-9]*" name=""' "$tmp/stacks.xml" | sed 's/.*id="\([0-9]*\)".*/\1/')	" "$tmp/stacks.xml" \
  || fail "far, past the end of host, was put in an object: $(grep '^far' "$tmp/stacks.xml")"
# an object the input names that is a FIFO is not opened to wait for a
# writer (nor a device read): the frame keeps no object
if command -v mkfifo >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1 && mkfifo "$tmp/fifo"; then
  printf 'prog 10/10     250000 cpu-clock: \n\t%16s a+0x4 (%s)\n\t%16s helper+0x10 (inlined)\n\n' \
    1004 "$tmp/fifo" 1010 >"$tmp/fifo.perf"
  expect 0 timeout 20 "$cgcost" --format=tsv "$tmp/fifo.perf" && [ "$(total_of "$tmp/out" helper)" = 250000 ] \
    || fail "an object that is a FIFO: $(cat "$tmp/out")"
fi

# A function symbol without a size (assembly without .size: gcc's
# deregister_tm_clones) holds up to the next function, as perf's own
# symbol ranges do (an address past that perf gives the next symbol's
# name, never bare+OFF).  Oracle: nm's addresses of bare and after, and
# nm -S's missing size of bare: bare+4 is the program's, an offset past
# after stays in no object.
cat >"$tmp/bare.c" <<'C'
__asm__ (".text\n.globl bare\n.type bare,@function\nbare:\n.fill 32,1,0x90\nret\n"
         ".globl after\n.type after,@function\nafter:\nret\n.size after,1\n");
int main (void) { return 0; }
C
if cc -o "$tmp/bare" "$tmp/bare.c" 2>/dev/null; then
  bare=$(nm "$tmp/bare" | awk '$3 == "bare" { print $1 }')
  after=$(nm "$tmp/bare" | awk '$3 == "after" { print $1 }')
  [ -n "$bare" ] && [ -n "$after" ] && [ "$(nm -S "$tmp/bare" | awk '$NF == "bare" { print NF }')" = 3 ] \
    || fail "nm: bare at '$bare' (without a size?), after at '$after'"
  past=$((0x$after - 0x$bare + 0x10))
  {
    printf 'prog 10/10     250000 cpu-clock: \n'
    printf '\t%16x inside+0x4 (inlined)\n' $((0x$bare + 4))
    printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/bare"
    printf 'prog 10/10     250000 cpu-clock: \n'
    printf '\t%16x beyond+0x%x (inlined)\n' $((0x$bare + past)) "$past"
    printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/bare"
    # functions of the same names elsewhere, that the names show objects
    printf 'prog 10/10     250000 cpu-clock: \n\t%16s inside+0x4 (%s)\n\t%16s beyond+0x4 (%s)\n\n' \
      5004 /usr/lib/libother.so 5104 /usr/lib/libother.so
  } >"$tmp/bare.perf"
  expect 0 "$cgcost" --format=tsv "$tmp/bare.perf" || fail "cgcost, a symbol without a size"
  [ "$(total_of "$tmp/out" "inside [$tmp/bare]")" = 250000 ] \
    || fail "bare+4 is not the program's: $(grep inside "$tmp/out")"
  [ "$(total_of "$tmp/out" "beyond []")" = 250000 ] \
    || fail "an offset past the next function was put in the program: $(grep beyond "$tmp/out")"
fi

# A perf.data read directly: cgmerge's own perf script prints the +0xOFF
# too (-F ...,sym,symoff,dso), or such frames stay in no object.  gcc
# splits work into a header, called through a pointer, and work.part.0,
# whose frames perf prints as "work (inlined)" alone (ninja 1.11's
# StatusPrinter::BuildEdgeFinished: 53 ms of its 575 in no object, named
# 'BuildEdgeFinished []' beside the program's of 0.25 ms).  Oracle:
# nm's work.part.0, the start each such frame's offset gives.
command -v perf >/dev/null 2>&1 || finish
cat >"$tmp/split.c" <<'C'
#include <stdlib.h>
volatile double sink;
double table[64];
static double __attribute__ ((noinline)) heavy (int n, double s)
{
  for (int i = 0; i < n; i++)
    s += (double) i / (i + 3) * table[i & 63];
  return s;
}
static double work (int n, int flag)
{
  if (__builtin_expect (flag == 0, 1))
    return 0;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (double) i / (i + 3) * table[(i * 7) & 63];
  for (int i = 0; i < n; i++)
    s -= (double) i / (i + 5) * table[(i * 3) & 63];
  sink = s + heavy (n / 4, s);
  return s;
}
double (*volatile fp) (int, int) = work;
double __attribute__ ((noinline)) drive (int n) { double t = 0; for (int k = 0; k < 400; k++) t += fp (n + k, k & 1); return t; }
/* inlines work's header, so that gcc splits it; never run */
double __attribute__ ((noinline)) drive2 (int n) { double t = 0; for (int k = 0; k < 400; k++) t += work (n - k, k & 2); return t; }
int main (int argc, char **argv)
{
  for (int i = 0; i < 64; i++)
    table[i] = i * 0.5;
  sink = drive (argc > 1 ? atoi (argv[1]) : 100000) + (argc > 5 ? drive2 (200000) : 0);
  return 0;
}
C
cc -O2 -g -fno-omit-frame-pointer -o "$tmp/split" "$tmp/split.c" || finish
nm "$tmp/split" | grep -q ' work\.part\.0$' || { echo "note: cc split no work.part.0 here"; finish; }
perf record -q --call-graph dwarf -e cpu-clock -o "$tmp/split.data" "$tmp/split" >"$tmp/err" 2>&1 \
  || { echo "note: perf record cannot record here: $(head -c 200 "$tmp/err")"; finish; }
perf script --no-demangle -i "$tmp/split.data" -F ip,sym,dso 2>/dev/null | grep -q '^[[:space:]]*[0-9a-f]* work (inlined)$' \
  || { echo "note: perf printed no inline-only frame of work.part.0"; finish; }
expect 0 "$cgmerge" "$tmp/split.data" || fail "cgmerge split.data"
id=$(grep -o "<object id=\"[0-9]*\" name=\"$tmp/split\"" "$tmp/out" | sed 's/.*id="\([0-9]*\)".*/\1/')
[ -n "$id" ] && grep -q "^work	$id	" "$tmp/out" \
  || fail "work.part.0's inline-only frames are not the program's: $(grep -e '^work	' -e '<object ' "$tmp/out")"
finish
