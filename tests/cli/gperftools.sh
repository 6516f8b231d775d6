#!/bin/sh
# gperftools' CPU profiles (the legacy binary format), made at test time:
# a C program of known structure (direct recursion, mutual recursion, one
# work function called from four places), built with frame pointers as a
# PIE and run under libprofiler (LD_PRELOAD, CPUPROFILE_FREQUENCY=1000).
# Oracles: google-pprof --text --cum, whose flat and cum columns are each
# function's self and total in samples (pprof counts a sample once per
# function on its stack, so cum is right under recursion); google-pprof
# --callgrind read by our callgrind reader (self per function, the
# inclusive cost of each arc outside the even/odd cycle); the period the
# header states (cpu = samples x 1 ms).  Then the same profile re-encoded
# big-endian and, from a static build whose PCs fit in 32 bits, in 4-byte
# words of either order; damaged and cut copies (errors at their byte
# offsets); a program moved away (a warning naming it) and read back with
# --executable.  Skipped (77) without libprofiler (Debian:
# libgoogle-perftools-dev) or google-pprof (google-perftools).
. "${top_srcdir:-.}/tests/cli/common.sh"

cc=${CC:-cc}
command -v google-pprof >/dev/null 2>&1 || skip "google-pprof is not installed (Debian: google-perftools)"
command -v perl >/dev/null 2>&1 || skip "perl is not installed"
libprofiler=$($cc -print-file-name=libprofiler.so)
[ -f "$libprofiler" ] || skip "libprofiler.so is not installed (Debian: libgoogle-perftools-dev)"

cat >"$tmp/rec.c" <<'EOF'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__ ((noinline)) static void spin (unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
__attribute__ ((noinline)) void leaf (unsigned long n) { spin (n); }
__attribute__ ((noinline)) void odd (int d, unsigned long n);
__attribute__ ((noinline)) void even (int d, unsigned long n) { spin (n); if (d > 0) odd (d - 1, n); else leaf (n); }
__attribute__ ((noinline)) void odd (int d, unsigned long n) { spin (2 * n); if (d > 0) even (d - 1, n); }
static inline __attribute__ ((always_inline)) void twice (unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += 2 * i; }
__attribute__ ((noinline)) int fact (int d, unsigned long n) { spin (n); twice (n / 2); return d > 0 ? d * fact (d - 1, n) : 1; }
int
main (int argc, char **argv)
{
  unsigned long n = argc > 1 ? strtoul (argv[1], 0, 10) : 200000;
  for (int i = 0; i < 100; i++)
    {
      even (6, n);
      sink += fact (5, n);
    }
  return 0;
}
EOF
mkdir "$tmp/run" || exit 99
# with libdw, cgtools shows inlined calls as pprof does (twice, inlined
# into fact): built with -g, their DWARF says where they are
names="main even odd fact leaf spin"
debug=
if grep -q "define HAVE_LIBDW 1" "$top_builddir/config.h" 2>/dev/null; then
  debug=-g
  names="$names twice"
fi
$cc -O1 $debug -fno-omit-frame-pointer -fno-inline -o "$tmp/run/rec" "$tmp/rec.c" >"$tmp/cc.log" 2>&1 \
  || { fail "cannot build the test program: $(head -c 400 "$tmp/cc.log")"; finish; }
CPUPROFILE="$tmp/prof.out" CPUPROFILE_FREQUENCY=1000 LD_PRELOAD="$libprofiler" "$tmp/run/rec" 2500000 \
  >"$tmp/run.log" 2>&1 || { fail "the profiled run failed: $(head -c 400 "$tmp/run.log")"; finish; }
[ -s "$tmp/prof.out" ] || skip "libprofiler wrote no profile (a machine without ITIMER_PROF signals?)"

# pprof PROFILE: google-pprof's flat and cum in samples per function, as
# NAME<TAB>FLAT<TAB>CUM (its mark of an inlined function, "(inline)",
# left out)
pprof_text () {
  google-pprof --text --cum --nodecount=100000 --nodefraction=0 --edgefraction=0 "$tmp/run/rec" "$1" \
    2>"$tmp/pprof.err" | awk 'NF >= 6 && $2 ~ /%$/ { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
                                                     sub(/ \(inline\)$/, "", name); printf "%s\t%s\t%s\n", name, $1, $4 }'
}
pprof_text "$tmp/prof.out" >"$tmp/top"
! grep -q "^Removing" "$tmp/pprof.err" || fail "google-pprof removed a frame from every stack: $(cat "$tmp/pprof.err")"
total=$(google-pprof --text "$tmp/run/rec" "$tmp/prof.out" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) samples$/\1/p')
[ "${total:-0}" -ge 100 ] || fail "google-pprof counts ${total:-no} samples (expected 100 or more)"
echo "google-pprof: $total samples"

"$cgmerge" "$tmp/prof.out" >"$tmp/prof.xml" 2>"$tmp/err" || fail "cgmerge prof.out: $(head -c 400 "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "cgmerge warned: $(head -c 400 "$tmp/err")"
validate "$tmp/prof.xml"
"$cgcost" --format=tsv --event=samples "$tmp/prof.xml" >"$tmp/tsv" || fail "cgcost --event=samples"

# the program's functions: self and total against pprof's flat and cum
awk -F '\t' 'NR == FNR { flat[$1] = $2; cum[$1] = $3; next }
  FNR > 1 && ($1 in flat) { seen[$1] = 1; if ($3 != flat[$1] || $4 != cum[$1]) print "  " $1 ": ours " $3 " " $4 ", pprof " flat[$1] " " cum[$1] }
  END { n = split(names, want, " "); for (i = 1; i <= n; i++) if (!(want[i] in seen)) print "  " want[i] ": missing" }' \
  names="$names" "$tmp/top" "$tmp/tsv" >"$tmp/cmp"
[ ! -s "$tmp/cmp" ] || fail "against google-pprof --text --cum: $(cat "$tmp/cmp")"
sum=$(awk -F '\t' 'NR > 1 { s += $3 } END { print s + 0 }' "$tmp/tsv")
[ "$sum" = "$total" ] || fail "our self samples add up to $sum, google-pprof's total is $total"
echo "against google-pprof --text --cum: $(awk -F '\t' -v names=" $names " 'FNR > 1 && index(names, " " $1 " ") { printf "%s %s/%s ", $1, $3, $4 }' "$tmp/tsv")"
# recursion: the cycle's members and fact within main, each counted once
awk -F '\t' '$1 == "main" { m = $4 } $1 == "even" || $1 == "odd" || $1 == "fact" { if ($4 > m || $4 <= 0) bad = bad " " $1 }
  END { if (bad != "") { print bad; exit 1 } }' "$tmp/tsv" >"$tmp/bad" \
  || fail "totals above main's or empty: $(cat "$tmp/bad")"

# cpu, the default event: samples x the period the header states (1000 us)
"$cgcost" --format=tsv "$tmp/prof.xml" >"$tmp/tsv-cpu" || fail "cgcost (cpu)"
awk -F '\t' 'NR == FNR { if (FNR > 1) s[$1] = $3 " " $4; next }
  FNR > 1 { split(s[$1], x, " "); if ($3 != x[1] * 1000000 || $4 != x[2] * 1000000) print "  " $1 ": " $3 " " $4 " ns for " s[$1] " samples" }' \
  "$tmp/tsv" "$tmp/tsv-cpu" >"$tmp/cmp"
[ ! -s "$tmp/cmp" ] || fail "cpu is not samples x 1 ms: $(cat "$tmp/cmp")"

# google-pprof --callgrind, read by our callgrind reader: the same self
# costs, and the same inclusive costs on arcs outside the even/odd cycle
google-pprof --callgrind "$tmp/run/rec" "$tmp/prof.out" >"$tmp/pprof.callgrind" 2>/dev/null \
  || fail "google-pprof --callgrind failed"
{ "$cgcost" --format=tsv "$tmp/pprof.callgrind" && "$cgcost" --format=tsv --arcs "$tmp/pprof.callgrind"; } \
  >"$tmp/cg-tsv" 2>/dev/null || fail "cgcost on pprof --callgrind"
{ cat "$tmp/tsv" && "$cgcost" --format=tsv --arcs --event=samples "$tmp/prof.xml"; } >"$tmp/arcs" || fail "cgcost --arcs"
# each file: the functions (self), then the arcs (inclusive)
awk -F '\t' '/^function\t/ { a = 0; next } /^caller\t/ { a = 1; next }
  NR == FNR { if (a) arc[$1 " > " $2] = $4; else self[$1] = $3; next }
  !a && ($1 in self) { n++; if ($3 != self[$1]) print "  self " $1 ": ours " $3 ", pprof --callgrind " self[$1] }
  a && ($1 " > " $2) in arc && !($1 == "even" && $2 == "odd") && !($1 == "odd" && $2 == "even") {
    m++; if ($4 != arc[$1 " > " $2]) print "  arc " $1 " > " $2 ": ours " $4 ", pprof --callgrind " arc[$1 " > " $2] }
  END { if (n < 6 || m < 6) print "  only " n " functions and " m " arcs in common"; else print n " functions and " m " arcs compared" > "/dev/stderr" }' \
  "$tmp/cg-tsv" "$tmp/arcs" >"$tmp/cmp"
[ ! -s "$tmp/cmp" ] || fail "against google-pprof --callgrind: $(cat "$tmp/cmp")"

# re-encoded: SIZE-byte words in ORDER, the samples' words rewritten
cat >"$tmp/conv.pl" <<'EOF'
use strict;
my ($size, $order) = @ARGV;
local $/;
binmode STDIN;
binmode STDOUT;
my $in = <STDIN>;
my ($at, @w) = (0);
sub word { my $v = unpack ("Q<", substr ($in, $at, 8)); $at += 8; push @w, $v; $v }
word () for 1 .. 5;
for (;;) {
  my ($count, $depth) = (word (), word ());
  my @pcs = map { word () } 1 .. $depth;
  last if $count == 0 && $depth == 1 && $pcs[0] == 0;
}
die "a word above 32 bits\n" if $size == 4 && grep { $_ > 0xffffffff } @w;
print pack (($size == 4 ? ($order eq "be" ? "N" : "V") : ($order eq "be" ? "Q>" : "Q<")) . "*", @w), substr ($in, $at);
EOF
perl "$tmp/conv.pl" 8 be <"$tmp/prof.out" >"$tmp/prof-be.out" || fail "cannot re-encode the profile"
"$cgcost" --format=tsv --event=samples "$tmp/prof-be.out" >"$tmp/tsv-be" 2>"$tmp/err" || fail "big-endian: $(cat "$tmp/err")"
cmp -s "$tmp/tsv" "$tmp/tsv-be" || fail "the big-endian profile reads otherwise"
gzip -c "$tmp/prof.out" >"$tmp/prof.out.gz"
"$cgcost" --format=tsv --event=samples "$tmp/prof.out.gz" >"$tmp/tsv-gz" 2>&1 && cmp -s "$tmp/tsv" "$tmp/tsv-gz" \
  || fail "the gzipped profile reads otherwise: $(head -c 300 "$tmp/tsv-gz")"

# a static build (libprofiler.a linked in), whose PCs fit in 32 bits
if $cc -O1 -static -fno-omit-frame-pointer -fno-inline -o "$tmp/run/recst" "$tmp/rec.c" -Wl,--whole-archive -lprofiler \
  -Wl,--no-whole-archive -lstdc++ -lunwind -llzma -lpthread >"$tmp/cc.log" 2>&1; then
  CPUPROFILE="$tmp/st.out" CPUPROFILE_FREQUENCY=1000 "$tmp/run/recst" 1000000 >"$tmp/run.log" 2>&1 \
    || fail "the static program's run failed: $(head -c 300 "$tmp/run.log")"
  "$cgcost" --format=tsv --event=samples "$tmp/st.out" >"$tmp/tsv-st" 2>"$tmp/err" || fail "static: $(cat "$tmp/err")"
  grep -q "^fact	" "$tmp/tsv-st" || fail "the static program's profile has no fact"
  for layout in "4 le" "4 be" "8 be"; do
    # shellcheck disable=SC2086
    perl "$tmp/conv.pl" $layout <"$tmp/st.out" >"$tmp/st-x.out" || { fail "cannot re-encode in $layout"; continue; }
    "$cgcost" --format=tsv --event=samples "$tmp/st-x.out" >"$tmp/tsv-x" 2>"$tmp/err" || fail "$layout: $(cat "$tmp/err")"
    cmp -s "$tmp/tsv-st" "$tmp/tsv-x" || fail "the profile in words of $layout reads otherwise"
  done
else
  echo "no static build with libprofiler.a (skipped the 32-bit words): $(head -c 200 "$tmp/cc.log")"
fi

# damage, at byte offsets the first records give (8-byte words)
first_depth=$(perl -e 'local $/; binmode STDIN; my $d = <STDIN>; print unpack ("Q<", substr ($d, 48, 8))' <"$tmp/prof.out")
second=$((40 + 16 + 8 * first_depth))
head -c 100 "$tmp/prof.out" >"$tmp/cut.out"
expect 1 "$cgmerge" "$tmp/cut.out" && expect_message "cut.out: offset 40: a record of $first_depth PCs, and the input ends"
head -c "$second" "$tmp/prof.out" >"$tmp/cut2.out"
expect 1 "$cgmerge" "$tmp/cut2.out" && expect_message "cut2.out: offset $second: the input ends before the trailer"
head -c 24 "$tmp/prof.out" >"$tmp/cut3.out"
expect 1 "$cgmerge" "$tmp/cut3.out" && expect_message "cut3.out: offset 24: the input ends inside the header"
perl -e 'local $/; binmode STDIN; binmode STDOUT; my $d = <STDIN>; substr ($d, $ARGV[0], 8) = pack ("Q<", 0); print $d' \
  "$second" <"$tmp/prof.out" >"$tmp/count0.out"
expect 1 "$cgmerge" "$tmp/count0.out" && expect_message "count0.out: offset $second: a record with a count of 0"
perl -e 'local $/; binmode STDIN; binmode STDOUT; my $d = <STDIN>; substr ($d, $ARGV[0] + 8, 8) = pack ("Q<", 1 << 40); print $d' \
  "$second" <"$tmp/prof.out" >"$tmp/deep.out"
expect 1 "$cgmerge" "$tmp/deep.out" && expect_message "deep.out: offset $second: a record of 1099511627776 PCs, more than any profiler writes"
perl -e 'local $/; binmode STDIN; binmode STDOUT; my $d = <STDIN>; substr ($d, $ARGV[0] + 8, 8) = pack ("Q<", 0); print $d' \
  "$second" <"$tmp/prof.out" >"$tmp/depth0.out"
expect 1 "$cgmerge" "$tmp/depth0.out" && expect_message "depth0.out: offset $second: a record of depth 0"

# the program moved away: a warning names it, its PCs are [rec]; read
# back with --executable, the names are the program's again
mv "$tmp/run/rec" "$tmp/rec.moved" || exit 99
"$cgcost" --format=tsv --event=samples "$tmp/prof.out" >"$tmp/tsv-gone" 2>"$tmp/err" || fail "without the program: $(cat "$tmp/err")"
grep -qF "$tmp/run/rec: No such file or directory: its functions are named [rec]" "$tmp/err" \
  || fail "no warning naming the missing program: $(head -c 400 "$tmp/err")"
# (a sample may fall in libc's code, and the few whose stack libc's
# frames cut may lack the program's)
awk -F '\t' -v t="$total" '$1 == "[rec]" && $2 == 0 && $4 <= t && $4 >= t - 2 && $4 >= 0.98 * t { ok = 1 } END { exit !ok }' \
  "$tmp/tsv-gone" || fail "the missing program's samples are not [rec]'s: $(head -n 3 "$tmp/tsv-gone")"
"$cgcost" --format=tsv --event=samples --executable="$tmp/rec.moved" "$tmp/prof.out" >"$tmp/tsv-moved" 2>"$tmp/err" \
  || fail "--executable: $(cat "$tmp/err")"
grep -q "mapped no file named rec.moved: --executable=$tmp/rec.moved is read for $tmp/run/rec" "$tmp/err" \
  || fail "no warning saying which file --executable stands for: $(head -c 400 "$tmp/err")"
cmp -s "$tmp/tsv" "$tmp/tsv-moved" || fail "read with --executable, the profile reads otherwise"
# rebuilt in its place: another inode, a warning
cp "$tmp/rec.moved" "$tmp/run/rec" || exit 99
"$cgmerge" "$tmp/prof.out" >/dev/null 2>"$tmp/err" || fail "with the program copied back: $(cat "$tmp/err")"
grep -qF "$tmp/run/rec is not the file the profiled process mapped" "$tmp/err" \
  || fail "no warning that the program was replaced: $(head -c 400 "$tmp/err")"
finish
