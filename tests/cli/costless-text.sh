#!/bin/sh
# Texts of profilers' commands that hold no cost are named, with what to
# give instead, where they read "unknown input format": gprof -r
# (--function-ordering) prints a name a line, the order it suggests
# linking the functions in; perf script -F sym prints a blank line a
# sample (perf 6.1 prints a symbol only beside ip), and without the
# period and event fields a chain's symbols could not be costed anyway.  Made at test time
# where gprof and perf are installed and can record (else only the
# synthetic texts); the message must never be "unknown input format".
. "${top_srcdir:-.}/tests/cli/common.sh"

gprof_r="a name a line, as gprof -r (--function-ordering) and -R (--file-ordering) print the order they suggest linking the functions or files in, which holds no costs: give cgmerge the gmon.out (with --executable), or the report gprof prints without -r or -R"
perf_sym="blank lines alone, one a sample, or symbols alone, as perf script -F sym prints them (perf prints a sample's symbols only beside ip, and no period or event without their fields): nothing to charge a cost to; give cgmerge the perf.data, or what perf script prints with its default fields"

printf 'mid\nleaf\n_init\nstd::vector<int, std::allocator<int> >::push_back(int const&)\nmain\n' >"$tmp/order.txt"
expect 1 "$cgcost" "$tmp/order.txt" && expect_message "order.txt:1: $gprof_r"
printf '\n\n\n\n' >"$tmp/blank.txt"
expect 1 "$cgmerge" "$tmp/blank.txt" && expect_message "blank.txt:1: $perf_sym"
# a call chain's symbols, indented, as another perf might print them
printf '\tleaf\n\tmid\n\tmain\n\n\tmid\n\tmain\n\n' >"$tmp/chains.txt"
expect 1 "$cgmerge" "$tmp/chains.txt" && expect_message "chains.txt:1: $perf_sym"
# a name with a blank outside a parameter list, or a number, is no such list
printf 'mid\nleaf 12\n' >"$tmp/other.txt"
expect 1 "$cgcost" "$tmp/other.txt" && expect_message "unknown input format"

cat >"$tmp/p.c" <<'C'
static volatile long s;
__attribute__ ((noinline)) long leaf (long i) { long x = 0; for (int k = 0; k < 2000; k++) x += i ^ k; return x; }
__attribute__ ((noinline)) long mid (long n) { long t = 0; for (long i = 0; i < n; i++) t += leaf (i); return t; }
int main (void) { for (int j = 0; j < 200; j++) s += mid (1000); return 0; }
C
if command -v gprof >/dev/null 2>&1 && ${CC:-cc} -O1 -pg -o "$tmp/pg" "$tmp/p.c" 2>/dev/null; then
  (cd "$tmp" && ./pg) && gprof -r "$tmp/pg" "$tmp/gmon.out" >"$tmp/gprof-r.txt" 2>/dev/null \
    || fail "test set-up: gprof -r"
  grep -q '^mid$' "$tmp/gprof-r.txt" || fail "test set-up: gprof -r lists no mid: $(head -5 "$tmp/gprof-r.txt")"
  expect 1 "$cgcost" "$tmp/gprof-r.txt" && expect_message "gprof-r.txt:1: $gprof_r"
  expect 0 "$cgcost" --format=tsv --executable="$tmp/pg" "$tmp/gmon.out" || fail "what the message says to give"
else
  echo "note: no gprof or no -pg here: gprof -r's output not made"
fi

if command -v perf >/dev/null 2>&1 && ${CC:-cc} -O1 -fno-omit-frame-pointer -o "$tmp/p" "$tmp/p.c" \
  && perf record -q -g -e cpu-clock -o "$tmp/perf.data" "$tmp/p" >"$tmp/log" 2>&1; then
  perf script -i "$tmp/perf.data" -F sym >"$tmp/sym.txt" 2>/dev/null || fail "test set-up: perf script -F sym"
  if [ -s "$tmp/sym.txt" ]; then
    expect 1 "$cgcost" "$tmp/sym.txt" && expect_message "sym.txt:1: $perf_sym"
    expect 0 "$cgcost" --format=tsv "$tmp/perf.data" || fail "what the message says to give"
  else
    echo "note: perf recorded no sample"
  fi
else
  echo "note: perf cannot record here: perf script -F sym's output not made"
fi
finish
