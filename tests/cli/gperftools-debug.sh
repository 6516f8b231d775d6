#!/bin/sh
# gperftools profiles of a program stripped of its symbols, whose
# symbols and DWARF are in a separate debug file that its .gnu_debuglink
# section names (objcopy --only-keep-debug, then --add-gnu-debuglink: no
# build ID, so only the link finds it, as gdb and addr2line find it):
# its functions were named [rec], the debug file being looked for under
# /usr/lib/debug/.build-id alone.  Oracle: the same profile read with
# --executable naming the unstripped program (its own symbols); and a
# debug file of another build, whose CRC differs, is not taken.  Several
# profiles of the program read the file and its debug file once, not once
# each (strace counts the opens, where strace is installed).  Skipped (77)
# without libprofiler or objcopy.
. "${top_srcdir:-.}/tests/cli/common.sh"

cc=${CC:-cc}
libprofiler=$($cc -print-file-name=libprofiler.so)
[ -f "$libprofiler" ] || skip "libprofiler.so is not installed (Debian: libgoogle-perftools-dev)"
command -v objcopy >/dev/null 2>&1 && command -v strip >/dev/null 2>&1 || skip "objcopy is not installed (binutils)"

cat >"$tmp/rec.c" <<'EOF'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__ ((noinline)) static void spin (unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
__attribute__ ((noinline)) static void leaf (unsigned long n) { spin (n); }
__attribute__ ((noinline)) static void walk (int d, unsigned long n) { spin (n); if (d > 0) walk (d - 1, n); else leaf (n); }
int
main (int argc, char **argv)
{
  unsigned long n = argc > 1 ? strtoul (argv[1], 0, 10) : 200000;
  for (int i = 0; i < 60; i++)
    walk (5, n);
  return 0;
}
EOF
mkdir "$tmp/run" "$tmp/other" || exit 99
$cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id=none -o "$tmp/run/rec" "$tmp/rec.c" >"$tmp/cc.log" 2>&1 \
  || { fail "cannot build the test program: $(head -c 400 "$tmp/cc.log")"; finish; }
cp "$tmp/run/rec" "$tmp/full"
objcopy --only-keep-debug "$tmp/run/rec" "$tmp/run/rec.debug" && strip --strip-all "$tmp/run/rec" \
  && objcopy --add-gnu-debuglink="$tmp/run/rec.debug" "$tmp/run/rec" || fail "objcopy"
for i in 1 2 3; do
  CPUPROFILE="$tmp/p$i.prof" CPUPROFILE_FREQUENCY=1000 LD_PRELOAD="$libprofiler" "$tmp/run/rec" 2500000 \
    >"$tmp/run.log" 2>&1 || { fail "the profiled run failed: $(head -c 400 "$tmp/run.log")"; finish; }
done
[ -s "$tmp/p1.prof" ] || skip "libprofiler wrote no profile (a machine without ITIMER_PROF signals?)"

"$cgcost" --format=tsv --executable="$tmp/full" "$tmp/p1.prof" >"$tmp/want" 2>/dev/null || fail "cgcost --executable"
expect 0 "$cgcost" --format=tsv "$tmp/p1.prof" || fail "cgcost on the stripped program's profile"
cp "$tmp/out" "$tmp/got"
for f in main walk leaf spin; do
  grep -q "^$f	" "$tmp/got" || fail "no function $f (the debug file was not found): $(head -12 "$tmp/got")"
done
cmp -s "$tmp/want" "$tmp/got" \
  || fail "the stripped program with its debug link is not named as the unstripped one: $(diff "$tmp/want" "$tmp/got" | head -20)"
echo "by the debug link: $(awk -F '\t' 'NR > 1 && $3 > 0 { printf "%s %s; ", $1, $3 }' "$tmp/got")"

# a debug file of another build (other code, so another CRC) is not taken
sed 's/i < 60/i < 61/' "$tmp/rec.c" >"$tmp/other/rec.c"
$cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id=none -o "$tmp/other/rec" "$tmp/other/rec.c" \
  && objcopy --only-keep-debug "$tmp/other/rec" "$tmp/other/rec.debug" || fail "cannot build the other program"
mv "$tmp/run/rec.debug" "$tmp/run/rec.debug.right"
cp "$tmp/other/rec.debug" "$tmp/run/rec.debug"
"$cgcost" --format=tsv "$tmp/p1.prof" >"$tmp/wrong" 2>/dev/null || fail "cgcost with a wrong debug file"
grep -q "^walk	" "$tmp/wrong" && fail "a debug file whose CRC differs was taken: $(head -12 "$tmp/wrong")"
grep -q "^\[rec\]	" "$tmp/wrong" || fail "with a wrong debug file, the program's code is not [rec]: $(head -12 "$tmp/wrong")"
mv "$tmp/run/rec.debug.right" "$tmp/run/rec.debug"

# three profiles of the program: the program and its debug file are read
# once (each opened once for its symbols and once for its DWARF)
if command -v strace >/dev/null 2>&1 && strace -f -o "$tmp/probe" true 2>/dev/null; then
  # (LeakSanitizer, in the sanitizer build, cannot run under ptrace)
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -e trace=open,openat -o "$tmp/trace" "$cgmerge" "$tmp/p1.prof" "$tmp/p2.prof" "$tmp/p3.prof" \
    >"$tmp/merged.xml" 2>"$tmp/err" || fail "cgmerge of three profiles: $(cat "$tmp/err")"
  n=$(grep -c "\"$tmp/run/rec\"" "$tmp/trace")
  d=$(grep -c "\"$tmp/run/rec.debug\"" "$tmp/trace")
  [ "$n" -le 2 ] && [ "$d" -le 2 ] \
    || fail "three profiles opened the program $n times and its debug file $d times (expected at most 2 each)"
  echo "three profiles: the program opened $n times, its debug file $d times"
fi
finish
