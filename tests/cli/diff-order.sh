#!/bin/sh
# cgcost --base --format=text lists the functions by the change of their
# self cost (where the time went), then of their total, so that the one
# whose own cost changed comes first: by the change of total alone, the
# callers every change passes through came first (Lua 5.4 with a capped
# string table, under callgrind and perf: fifteen rows of main, the
# interpreter's loop and start-up code above internshrstr, the function
# that got slower).  Oracle: the tsv of the same difference (its
# self_change and total_change columns, a fixed contract), sorted so by
# awk; two callgrind runs of data/programs/diff-order.c made at test time,
# whose argument changes hash_key's own work alone.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
${CC:-cc} -O1 -g -o "$tmp/prog" "$top_srcdir/data/programs/diff-order.c" || skip "no C compiler"
for n in 1000 3000; do
  valgrind -q --tool=callgrind --callgrind-out-file="$tmp/cg$n.out" "$tmp/prog" $n >/dev/null 2>&1 \
    || skip "valgrind cannot run the program"
done

expect 0 "$cgcost" --base="$tmp/cg1000.out" --format=tsv "$tmp/cg3000.out" && cp "$tmp/out" "$tmp/diff.tsv"
# the oracle's order: the rows the text lists (a change of total or self,
# or a function on one side only), by |self change|, then |total change|,
# then the tsv's own order
awk -F '\t' 'function abs (x) { return x < 0 ? -x : x }
  NR > 1 && ($4 != 0 || $7 != 0 || $8 != "both") { printf "%.0f\t%.0f\t%d\t%s\n", abs($7), abs($4), NR, $1 }' \
  "$tmp/diff.tsv" | sort -t '	' -k1,1nr -k2,2nr -k3,3n | cut -f 4 >"$tmp/want"
[ "$(head -1 "$tmp/want")" = hash_key ] || fail "the oracle: hash_key's self did not change most: $(head -3 "$tmp/want")"

# the text's rows: after the titles, up to the blank line; the names
# after the four numbers and the two marks
rows () {
  sed -n '/^ *total change /,/^$/p' "$1" | sed '1d;$d' | sed -E 's/^( *[^ ]+ ){4}..//'
}
expect 0 "$cgcost" --base="$tmp/cg1000.out" --format=text "$tmp/cg3000.out" && cp "$tmp/out" "$tmp/diff.txt"
rows "$tmp/diff.txt" | unlabel >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "the text's order is not by self change: $(diff "$tmp/want" "$tmp/got" | head -8)"
grep -q 'by the change of self' "$tmp/diff.txt" || fail "the header does not say the order: $(sed -n 1,8p "$tmp/diff.txt")"
# hash_key's row: its numbers are the tsv's, digits grouped
group () { sed ':a
s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/
ta'; }
want=$(awk -F '\t' '$1 == "hash_key" { printf "%s%s %s %s %s%s\n", ($4 > 0 ? "+" : ""), $4, $2, $3, ($7 > 0 ? "+" : ""), $7 }' "$tmp/diff.tsv" \
  | tr ' ' '\n' | group | tr '\n' ' ')
got=$(awk '$NF == "hash_key" { print $1, $2, $3, $4 }' "$tmp/diff.txt")
[ "$got " = "$want" ] || fail "hash_key's row: $got, the tsv's $want"
# at 80 columns on a 24-line terminal, hash_key's row is on the first screen
expect 0 "$cgcost" --base="$tmp/cg1000.out" --format=text --width=80 "$tmp/cg3000.out"
line=$(grep -n ' hash_key$' "$tmp/out" | cut -d: -f1)
[ -n "$line" ] && [ "$line" -le 24 ] || fail "at 80 columns hash_key's row is line ${line:-none}: $(head -24 "$tmp/out")"
# the tsv keeps its order, by the change of total (its contract)
awk -F '\t' 'function abs (x) { return x < 0 ? -x : x }
  NR > 2 && abs($4) > prev + 0 { bad = 1 } NR > 1 { prev = abs($4) } END { exit bad }' "$tmp/diff.tsv" \
  || fail "the tsv is not by the change of total: $(head -4 "$tmp/diff.tsv")"
# profiles with long notes (libamon's: what it took out, how measured):
# the notes follow the table, which the head says, so that the changes
# are on the first screen (two amon.out's notes ran to 44 lines above)
if [ -f "$top_builddir/src/amon/.libs/libamon.so" ] && command -v pkg-config >/dev/null 2>&1; then
  amon_setup
  # shellcheck disable=SC2086 # the flags are words
  if $CC -O1 $cflags -o "$tmp/aprog" "$top_srcdir/data/programs/diff-order.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" \
       -Wl,-z,now 2>"$tmp/build.log"; then
    for n in 100000 300000; do
      (cd "$tmp" && AMON_OUT="$tmp/a$n.out" ./aprog $n >/dev/null) || fail "the libamon build did not run"
    done
    expect 0 "$cgcost" --base="$tmp/a100000.out" --format=text --width=80 "$tmp/a300000.out"
    row=$(grep -n ' hash_key$' "$tmp/out" | cut -d: -f1)
    first=$(grep -n '^Note (' "$tmp/out" | head -1 | cut -d: -f1)
    [ -n "$row" ] && [ "$row" -le 24 ] || fail "amon.out: hash_key's row is line ${row:-none}: $(head -24 "$tmp/out")"
    [ -n "$first" ] && [ "$first" -gt "$row" ] || fail "amon.out: the notes (line ${first:-none}) are not after the table"
    grep -q '^Note (.*a100000.out): instrumentation cost taken out' "$tmp/out" \
      && grep -q '^Note (.*a300000.out): instrumentation cost taken out' "$tmp/out" \
      || fail "amon.out: the two profiles' notes: $(grep '^Note' "$tmp/out")"
    sed -n 1,5p "$tmp/out" | tr '\n' ' ' | grep -q 'Notes on the two profiles .* follow the table' \
      || fail "amon.out: the head does not say the notes follow: $(head -4 "$tmp/out")"
    expect 0 "$cgcost" --base="$tmp/a100000.out" --format=text --arcs --width=80 "$tmp/a300000.out"
    first=$(grep -n '^Note (' "$tmp/out" | head -1 | cut -d: -f1)
    row=$(grep -n -- '-> hash_key$' "$tmp/out" | head -1 | cut -d: -f1)
    [ -n "$first" ] && [ -n "$row" ] && [ "$first" -gt "$row" ] || fail "amon.out --arcs: the notes (line ${first:-none}) are not after the table (hash_key's arc: ${row:-none})"
  else
    fail "cannot build diff-order.c with libamon: $(head -c 300 "$tmp/build.log")"
  fi
fi
finish
