#!/bin/sh
# perf record without -g: each sample names its function alone, with no
# call chain.  Such a profile has no callers, and every function's total
# is its own samples; the views showed each function called by the
# command's root and said every total was exact, with nothing telling
# the user that the recording had no stacks.  Every view for people now
# notes it, and a recording with -g does not.
# 1. perf script text in the form perf prints without -g (no perf needed).
# 2. Where perf records: a program of two working functions recorded
#    without -g, each function's self against perf report --sort=sym (the
#    oracle), and the note; the same program recorded with -g, no note.
. "${top_srcdir:-.}/tests/cli/common.sh"

note="The samples hold no call chains (recorded without -g or --call-graph): callers are not known, and each function's total is its own samples only."

# has_note VIEW FILE — the view's notes hold the note
has_note () {
  notes "$2" | grep -F -q -- "$note" || fail "$1: no note that the samples hold no call chains: $(head -c 800 "$2")"
}

cat >"$tmp/flat.txt" <<'EOF'
             prog  4711 100.000001:     250000 cpu-clock:      401200 work+0x10 (/usr/bin/prog)
             prog  4711 100.000251:     250000 cpu-clock:      401200 work+0x14 (/usr/bin/prog)
             prog  4711 100.000501:     250000 cpu-clock:      401300 main+0x8 (/usr/bin/prog)
EOF
expect 0 "$cgcost" --format=text "$tmp/flat.txt" || fail "cgcost --format=text"
has_note "cgcost --format=text" "$tmp/out"
expect 0 "$cgtree" "$tmp/flat.txt" || fail "cgtree"
has_note "cgtree" "$tmp/out"
expect 0 "$cgtree" --format=html "$tmp/flat.txt" || fail "cgtree --format=html"
grep -F -q "no call chains" "$tmp/out" || fail "cgtree --format=html: no note"
# the XML between the stages keeps it
"$cgmerge" "$tmp/flat.txt" >"$tmp/flat.xml" || fail "cgmerge"
expect 0 "$cgcost" --format=text "$tmp/flat.xml" || fail "cgcost on cgmerge's XML"
has_note "cgcost on cgmerge's XML" "$tmp/out"
expect 0 "$cgcost" --format=tsv "$tmp/flat.txt" || fail "cgcost --format=tsv"
[ "$(awk -F '\t' '$1 == "work" || $1 == "main" { print $1, $3, $4 }' "$tmp/out" | sort | tr '\n' ';')" \
  = "main 250000 250000;work 500000 500000;" ] || fail "the samples' self and total: $(cat "$tmp/out")"

# the same samples with call chains: no note
cat >"$tmp/chains.txt" <<'EOF'
prog  4711 100.000001:     250000 cpu-clock:
	          401200 work+0x10 (/usr/bin/prog)
	          401300 main+0x8 (/usr/bin/prog)

prog  4711 100.000251:     250000 cpu-clock:
	          401300 main+0x8 (/usr/bin/prog)

EOF
expect 0 "$cgcost" --format=text "$tmp/chains.txt" || fail "cgcost on samples with call chains"
grep -q "no call chains" "$tmp/out" && fail "samples with call chains said to have none: $(head -c 600 "$tmp/out")"

if command -v perf >/dev/null 2>&1 && perf record -q -e cpu-clock -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
   && perf script -i "$tmp/probe.data" >/dev/null 2>&1; then
  # two functions that each take a share of the time, so that both have
  # samples in any run
  cat >"$tmp/two.c" <<'SRC'
static volatile unsigned long sink;
__attribute__ ((noinline)) static void twice (void) { for (unsigned long i = 0; i < 60000000; i++) sink += i; }
__attribute__ ((noinline)) static void once (void) { for (unsigned long i = 0; i < 30000000; i++) sink += i; }
int main (void) { twice (); once (); return 0; }
SRC
  ${CC:-cc} -O0 -fno-omit-frame-pointer -o "$tmp/perfrec" "$tmp/two.c" || fail "cannot build two.c"
  perf record -q -e cpu-clock -o "$tmp/flat.data" "$tmp/perfrec" >"$tmp/err" 2>&1 || fail "perf record: $(cat "$tmp/err")"
  expect 0 "$cgcost" --format=text "$tmp/flat.data" || fail "cgcost perf.data without -g"
  has_note "perf.data without -g" "$tmp/out"
  # each named function's self (samples) against perf report's
  perf report -i "$tmp/flat.data" --stdio --sort=sym -F sample,sym 2>/dev/null \
    | awk '$2 == "[.]" && NF == 3 { print $3 "\t" $1 }' | sort >"$tmp/theirs"
  "$cgcost" --format=tsv "$tmp/flat.data" | awk -F '\t' 'NR > 1 && $3 > 0 { print $1 "\t" $3 / 250000 }' | sort >"$tmp/all"
  join -t '	' "$tmp/theirs" "$tmp/all" >"$tmp/both"
  grep -q '^twice	' "$tmp/both" && grep -q '^once	' "$tmp/both" \
    || fail "perf report and cgcost do not both list twice and once: $(cat "$tmp/theirs")"
  awk -F '\t' '$2 != $3 { exit 1 }' "$tmp/both" || fail "self samples differ from perf report's: $(cat "$tmp/both")"
  perf record -q -g -e cpu-clock -o "$tmp/g.data" "$tmp/perfrec" >"$tmp/err" 2>&1 || fail "perf record -g: $(cat "$tmp/err")"
  expect 0 "$cgcost" --format=text "$tmp/g.data" || fail "cgcost perf.data with -g"
  grep -q "no call chains" "$tmp/out" && fail "perf record -g said to have no call chains: $(head -c 600 "$tmp/out")"
  echo "perf: $(tr '\n' ' ' <"$tmp/both")"
else
  echo "perf cannot record here: that part skipped"
fi
finish
