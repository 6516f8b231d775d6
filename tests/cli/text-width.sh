#!/bin/sh
# The text views for people fit a terminal: cgcost --format=text (flat
# profile, call graph, the difference with --base), cgcycles
# --format=text and cgtree print their numbers first and their names
# last, and at a width (--width=N, or a terminal's) each row fits it, the
# names losing their middle by steps that keep the function's own name
# (the middle of the parameter list; the template arguments of what
# stands before the name as "<...>", then the function's own; the list
# gone, whole components of the qualifier out of its middle), never a
# number nor a mark ("[N]", "<cycle N>").  A C++ program's callgrind
# profile had rows of up to 1,058 columns (yaml-cpp 0.7: "int
# YAML::RegEx::MatchUnchecked<YAML::StreamCharSource>(...) const") that
# wrapped on a terminal, their continuations under the columns of
# numbers.  At a width, callgrind's billions show in a multiple of Ir
# and long call counts to three digits, as cgtree's do.  In a pipe or a
# file (or --width=0) the names and numbers stay whole.
# Oracles: the tsv form (a fixed contract, unchanged) for every number,
# and the names whole for every cut one (its two ends); a C++ program
# built and run under callgrind at test time.
. "${top_srcdir:-.}/tests/cli/common.sh"
CXX=${CXX:-g++}
command -v "$CXX" >/dev/null 2>&1 || skip "no C++ compiler"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"

cat >"$tmp/prog.cc" <<'EOF'
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
namespace deeply { namespace nested { namespace space {
template <typename K, typename V> struct Table {
  std::map<K, std::vector<V> > m;
  __attribute__ ((noinline)) void insert_value (const K &k, const V &v) { m[k].push_back (v); }
  __attribute__ ((noinline)) unsigned long sum_all (const std::map<K, std::vector<V> > &other) const
  {
    unsigned long s = 0;
    for (typename std::map<K, std::vector<V> >::const_iterator p = m.begin (); p != m.end (); ++p)
      for (unsigned i = 0; i < p->second.size (); i++)
        s += p->second[i].size ();
    return s + other.size ();
  }
};
template <typename T> struct StreamSource { std::vector<T> v; };
template <typename T> struct StringSource { std::vector<T> v; };
template <typename Src> __attribute__ ((noinline)) int match_unchecked (const Src &src, int n)
{
  int k = 0;
  for (int i = 0; i < n; i++)
    k += (int) src.v.size () * i % 7;
  return k;
}
template <typename T> __attribute__ ((noinline)) bool is_odd_recursively (T n);
template <typename T> __attribute__ ((noinline)) bool is_even_recursively (T n)
{
  return n == 0 ? true : is_odd_recursively<T> (n - 1);
}
template <typename T> __attribute__ ((noinline)) bool is_odd_recursively (T n)
{
  return n == 0 ? false : is_even_recursively<T> (n - 1);
}
}}}
using namespace deeply::nested::space;
volatile int sink;
int main (int argc, char **argv)
{
  int scale = argc > 1 ? atoi (argv[1]) : 1;
  Table<std::string, std::string> t;
  for (int i = 0; i < 2000 * scale; i++)
    t.insert_value (std::string (1 + i % 7, 'k'), std::string (1 + i % 13, 'v'));
  for (int i = 0; i < 5 * scale; i++)
    sink += (int) t.sum_all (t.m);
  StreamSource<std::basic_string<char> > a;
  StringSource<std::basic_string<char> > b;
  a.v.resize (3);
  b.v.resize (5);
  sink += match_unchecked (a, 30000 * scale) + match_unchecked (b, 20000);
  for (int i = 0; i < 50; i++)
    sink += is_even_recursively<unsigned long> ((unsigned long) (i + scale));
  return 0;
}
EOF
"$CXX" -O1 -g -o "$tmp/prog" "$tmp/prog.cc" || fail "cannot build the program"
for n in 1 3; do
  valgrind -q --tool=callgrind --callgrind-out-file="$tmp/cg$n.out" "$tmp/prog" $n >/dev/null 2>&1 \
    || skip "valgrind cannot run the program"
done
cg="$tmp/cg1.out"

# wider W FILE: the lines of FILE wider than W columns ("…" one column)
wider () {
  sed 's/\xe2\x80\xa6/./g' "$2" | awk -v w="$1" 'length > w { print; bad = 1 } END { exit bad }'
}


# cut CUT WHOLE: CUT is WHOLE with parts taken out, each marked "..."
# (both ends kept, the parts in order)
cuts_of () {
  awk -v cut="$1" -v whole="$2" 'BEGIN {
    n = split (cut, part, /\.\.\./)
    if (n == 1) exit (cut != whole)
    if (substr (whole, 1, length (part[1])) != part[1]) exit 1
    if (substr (whole, length (whole) - length (part[n]) + 1) != part[n]) exit 1
    rest = substr (whole, length (part[1]) + 1)
    for (i = 2; i < n; i++) {
      k = index (rest, part[i]); if (k == 0) exit 1
      rest = substr (rest, k + length (part[i]))
    }
    exit (length (rest) < length (part[n]))
  }'
}

# ---- the flat profile and the call graph at 80 columns ----
expect 0 "$cgcost" --format=text "$cg" && cp "$tmp/out" "$tmp/whole"
long=$(awk '{ if (length > m) m = length } END { print m }' "$tmp/whole")
[ "$long" -gt 200 ] || fail "a pipe cut the names: the longest line has $long columns"
expect 0 "$cgcost" --format=text --width=80 "$cg" && cp "$tmp/out" "$tmp/w80"
wider 80 "$tmp/w80" >"$tmp/bad" || fail "--width=80: lines wider: $(head -3 "$tmp/bad")"

# the numbers: the tsv's (a fixed contract, the oracle), names demangled
# as c++filt does; each flat row at 80 columns has the whole row's
# numbers, and its name is the whole name with parts taken out
flat () { awk '/^ +%self/ { on = 1; next } on && /^$/ { exit } on' "$1"; }
flat "$tmp/whole" >"$tmp/flat.whole"
flat "$tmp/w80" >"$tmp/flat.w80"
"$cgcost" --format=tsv "$cg" >"$tmp/tsv"
if command -v c++filt >/dev/null 2>&1; then
  tail -n +2 "$tmp/tsv" | cut -f 1 | c++filt >"$tmp/tsv.names"
  tail -n +2 "$tmp/tsv" | cut -f 2-4 | paste "$tmp/tsv.names" - >"$tmp/tsv.demangled"
  # name TAB calls TAB self TAB total, from the whole text
  sed 's/^ *\([^ ]* *\)\{5\}//; s/ <cycle [0-9]*>$//' "$tmp/flat.whole" | unlabel >"$tmp/text.names"
  awk '{ c = $5; s = $2; t = $4; gsub (/,/, "", c); gsub (/,/, "", s); gsub (/,/, "", t); print c "\t" s "\t" t }' \
    "$tmp/flat.whole" | paste "$tmp/text.names" - | sort >"$tmp/text.rows"
  sort "$tmp/tsv.demangled" | join -t "$(printf '\t')" -j 1 - "$tmp/text.rows" >"$tmp/joined"
  [ "$(wc -l <"$tmp/joined")" -eq "$(wc -l <"$tmp/flat.whole")" ] \
    || fail "flat rows without their tsv row: $(wc -l <"$tmp/joined") of $(wc -l <"$tmp/flat.whole")"
  awk -F '\t' '$2 != $5 || $3 != $6 || $4 != $7 { print; bad = 1 } END { exit bad }' "$tmp/joined" >"$tmp/bad" \
    || fail "text and tsv differ: $(head -2 "$tmp/bad")"
fi
paste -d '\n' "$tmp/flat.whole" "$tmp/flat.w80" | while IFS= read -r whole && IFS= read -r cut; do
  set -- $whole
  wn=$(printf '%s\n' "$whole" | sed 's/^ *\([^ ]* *\)\{5\}//')
  cn=$(printf '%s\n' "$cut" | sed 's/^ *\([^ ]* *\)\{5\}//')
  [ "$(printf '%s\n' "$whole" | awk '{ print $1, $2, $3, $4, $5 }')" = "$(printf '%s\n' "$cut" | awk '{ print $1, $2, $3, $4, $5 }')" ] \
    || echo "numbers: $whole / $cut"
  cuts_of "$cn" "$wn" || echo "not a cut of its name: $cn"
done >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "--width=80, flat profile: $(head -3 "$tmp/bad")"

# the C++ names keep the function's own name: template arguments before
# it as "<...>", the parameter list gone, the namespaces out of the middle
for shown in '...Table<...>::insert_value(...)' '...Table<...>::sum_all(...) const' \
  '...space::match_unchecked<...>(...)'; do
  grep -qF "  $shown" "$tmp/flat.w80" || fail "--width=80: no '$shown': $(grep -e insert_value -e sum_all -e match_unchecked "$tmp/flat.w80")"
done
# the two instantiations of match_unchecked told apart, at a width that
# has room for their own template arguments
expect 0 "$cgcost" --format=text --width=120 "$cg"
wider 120 "$tmp/out" >"$tmp/bad" || fail "--width=120: lines wider: $(head -3 "$tmp/bad")"
for src in StreamSource StringSource; do
  grep -q "  int \.\.\.space::match_unchecked<deeply::nested::space::$src<\.\.\.> >(\.\.\.)$" "$tmp/out" \
    || fail "--width=120: $src's match_unchecked: $(grep match_unchecked "$tmp/out")"
done

# the call graph: the same entries, each row's "[N]" whole
graph_marks () { awk '/^index/ { on = 1; next } on' "$1" | grep -o '\[[0-9]*\]\( (recursive)\)\{0,1\}$'; }
graph_marks "$tmp/whole" >"$tmp/marks.whole"
graph_marks "$tmp/w80" >"$tmp/marks.w80"
[ -s "$tmp/marks.whole" ] && cmp -s "$tmp/marks.whole" "$tmp/marks.w80" \
  || fail "--width=80: the call graph's marks: $(diff "$tmp/marks.whole" "$tmp/marks.w80" | head -4)"
grep -q '<cycle 1>' "$tmp/whole" || fail "no cycle in the profile"
grep -q '^\[[0-9]*\] .*is_even_recursively<unsigned long>(unsigned long) <cycle 1> \[[0-9]*\]$' "$tmp/whole" \
  || fail "the cycle's member: $(grep is_even "$tmp/whole" | head -2)"
# the start of the member's own name, which tells is_even from is_odd,
# where its end read "...ly<...>(...)" for either
grep -q '^\[[0-9]*\] .*\.\.\.is_\(even\|odd\)_[a-z_]*[.<(].* <cycle 1> \[[0-9]*\]$' "$tmp/w80" \
  || fail "--width=80: the cycle's member: $(grep '^\[.*cycle 1' "$tmp/w80" | head -2)"

# --strip: no parameter lists nor template arguments
expect 0 "$cgcost" --format=text --strip "$cg"
grep -q '  deeply::nested::space::Table::insert_value$' "$tmp/out" || fail "--strip: $(grep insert_value "$tmp/out" | head -1)"
expect 2 "$cgcost" --format=tsv --strip "$cg" && expect_message "--strip"
# the tsv does not change with a width
"$cgcost" --format=tsv --width=80 "$cg" >"$tmp/tsv80"
cmp -s "$tmp/tsv" "$tmp/tsv80" || fail "--width changed the tsv"
expect 2 "$cgcost" --format=text --width=-3 "$cg" && expect_message "--width=-3"

# ---- the difference of two runs ----
expect 0 "$cgcost" --format=text --base="$tmp/cg1.out" "$tmp/cg3.out" && cp "$tmp/out" "$tmp/diff.whole"
expect 0 "$cgcost" --format=text --width=80 --base="$tmp/cg1.out" "$tmp/cg3.out" && cp "$tmp/out" "$tmp/diff.w80"
wider 80 "$tmp/diff.w80" >"$tmp/bad" || fail "diff --width=80: lines wider: $(head -3 "$tmp/bad")"
# the change of insert_value's total: the tsv's
"$cgcost" --format=tsv --base="$tmp/cg1.out" "$tmp/cg3.out" >"$tmp/diff.tsv"
group () { sed ':a
s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/
ta'; }
change=+$(grep 'Table.*insert_value' "$tmp/diff.tsv" | cut -f 4 | sed 's/^+//' | group)
case $change in +[1-9]*) ;; *) fail "the tsv's change of insert_value: '$change'" ;; esac
grep -q "^ *$change .*insert_value(...)\$" "$tmp/diff.w80" \
  || fail "diff --width=80: insert_value's change $change: $(grep insert_value "$tmp/diff.w80")"
expect 0 "$cgcost" --format=text --width=80 --arcs --base="$tmp/cg1.out" "$tmp/cg3.out"
wider 80 "$tmp/out" >"$tmp/bad" || fail "diff --arcs --width=80: lines wider: $(head -3 "$tmp/bad")"
"$cgcost" --format=tsv --arcs --base="$tmp/cg1.out" "$tmp/cg3.out" >"$tmp/arcs.tsv"
arc=$(awk -F '\t' '$1 == "main" && $2 ~ /Table.*insert_value/ { print $7, $3, $4 }' "$tmp/arcs.tsv" | sed 's/^+//')
set -- $arc
row="+$(echo "$1" | group) .* $(echo "$2" | group) \{1,\}$(echo "$3" | group)   main -> \.\.\.insert_value[(.]*)\{0,1\}\$"
grep -q "^ *$row" "$tmp/out" || fail "diff --arcs --width=80: main -> insert_value ($row): $(grep 'main ->' "$tmp/out")"

# ---- cgcycles and cgtree ----
expect 0 "$cgcycles" --format=text --width=60 "$cg"
wider 60 "$tmp/out" >"$tmp/bad" || fail "cgcycles --width=60: lines wider: $(head -3 "$tmp/bad")"
grep -qE '^ +[0-9,]+  .*is_odd_recursively<unsigned long>\(...\)$' "$tmp/out" \
  || fail "cgcycles --width=60: $(grep is_odd "$tmp/out")"
expect 0 "$cgcycles" --format=text "$cg"
grep -qE '^ +[0-9,]+  bool deeply::nested::space::is_odd_recursively<unsigned long>\(unsigned long\)$' "$tmp/out" \
  || fail "cgcycles, a pipe: $(grep is_odd "$tmp/out")"
expect 0 "$cgtree" --width=80 "$cg"
grep 'insert_value' "$tmp/out" >"$tmp/tree.rows"
wider 80 "$tmp/tree.rows" >"$tmp/bad" || fail "cgtree --width=80: lines wider: $(head -3 "$tmp/bad")"
grep -q '[|`]-\.\.\.Table<\.\.\.>::insert_value(\.\.\.)$' "$tmp/tree.rows" \
  || fail "cgtree --width=80: $(cat "$tmp/tree.rows")"

# ---- a terminal: its width, "…" in a UTF-8 locale ----
if command -v script >/dev/null 2>&1; then
  script -qc "stty cols 72 rows 50; '$cgcost' --format=text '$cg'" /dev/null >"$tmp/tty" 2>&1
  tr -d '\r' <"$tmp/tty" >"$tmp/tty.txt"
  flat "$tmp/tty.txt" >"$tmp/tty.flat"
  wider 72 "$tmp/tty.flat" >"$tmp/bad" || fail "a 72-column terminal: lines wider: $(head -3 "$tmp/bad")"
  grep -q 'insert_value' "$tmp/tty.txt" || fail "a 72-column terminal: $(head -3 "$tmp/tty.txt")"
  utf8=$(locale -a 2>/dev/null | grep -i -m 1 '^c\.utf-\{0,1\}8$')
  if [ -n "$utf8" ]; then
    LC_ALL=$utf8 "$cgcost" --format=text --width=80 "$cg" >"$tmp/utf8"
    grep -q "…Table<…>::insert_value(…)" "$tmp/utf8" || fail "UTF-8: $(grep insert_value "$tmp/utf8" | head -1)"
  fi
fi

# ---- callgrind's billions at 80 columns: costs in a multiple, calls short ----
cat >"$tmp/billions.out" <<'EOF'
events: Ir
fn=main
1 2413631575
cfn=leaf
calls=2000000000 1
1 4000000000
fn=leaf
1 4000000000
EOF
expect 0 "$cgcost" --format=text --width=80 "$tmp/billions.out" && cp "$tmp/out" "$tmp/b80"
wider 80 "$tmp/b80" >"$tmp/bad" || fail "billions at 80: lines wider: $(head -3 "$tmp/bad")"
grep -q '^Event: Ir, 6,413,631,575 Ir in all$' "$tmp/b80" || fail "billions at 80: the exact total: $(grep Event "$tmp/b80")"
grep -q '^Numbers to fit the width: costs in M Ir (millions of Ir)' "$tmp/b80" || fail "billions at 80: no note on the numbers"
# the tsv's: leaf 2,000,000,000 calls, 4,000,000,000 Ir; main 6,413,631,575 Ir in all
"$cgcost" --format=tsv "$tmp/billions.out" >"$tmp/b.tsv"
[ "$(awk -F '\t' '$1 == "leaf" { print $2, $3 }' "$tmp/b.tsv")" = "2000000000 4000000000" ] || fail "billions: the tsv: $(cat "$tmp/b.tsv")"
grep -qE '^ +62\.37 +4,000\.00 +62\.37 +4,000\.00 +2\.00G  leaf$' "$tmp/b80" \
  || fail "billions at 80: leaf's row: $(grep -e 'leaf$' -e '%self' "$tmp/b80")"
grep -qE '^\[1\] +100\.00 +6,413\.63 +2,413\.63 +0  main \[1\]$' "$tmp/b80" \
  || fail "billions at 80: main's entry: $(grep 'main \[1\]$' "$tmp/b80")"
grep -qE ' 2\.00G/2\.00G  leaf \[2\]$' "$tmp/b80" || fail "billions at 80: the arc's calls: $(grep 'leaf \[2\]' "$tmp/b80")"
grep -q ' self M Ir ' "$tmp/b80" || fail "billions at 80: the titles: $(grep '%self' "$tmp/b80")"
# a pipe: whole numbers
expect 0 "$cgcost" --format=text "$tmp/billions.out"
grep -qE ' 4,000,000,000 +2,000,000,000  leaf$' "$tmp/out" && ! grep -q 'Numbers to fit' "$tmp/out" \
  || fail "billions, a pipe: $(grep 'leaf$' "$tmp/out")"
finish
