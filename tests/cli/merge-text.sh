#!/bin/sh
# cgmerge --format=text: the event totals equal the profile's own
# "summary:" line, every function's self cost and calls equal cgcost's tsv
# (and add up to the total), the table is in order of self cost, and two
# inputs give the sum of each.
. "${top_srcdir:-.}/tests/cli/common.sh"

# rows FILE — the table's rows as "function<TAB>self<TAB>calls" (one
# event), thousands separators removed
rows () {
  sed -n '/^  %self/,$p' "$1" | sed 1d \
    | awk '{ name = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+  /, "", name); gsub(/,/, "", $2); gsub(/,/, "", $3); print name "\t" $2 "\t" $3 }'
}

for profile in "$data"/callgrind/*/callgrind.out.*; do
  name=$(basename "$profile")
  "$cgmerge" --format=text --no-demangle "$profile" >"$tmp/text" || { fail "$name: cgmerge --format=text"; continue; }
  summary=$(sed -n 's/^summary: //p' "$profile")
  total=$(sed -n 's/^Event Ir: \([0-9,]*\) Ir in all$/\1/p' "$tmp/text" | tr -d ,)
  [ "$total" = "$summary" ] || fail "$name: event total $total, the file's summary says $summary"
  rows "$tmp/text" | unlabel | sort >"$tmp/ours"
  "$cgcost" --format=tsv "$profile" | sed 1d | awk -F '\t' '{ print $1 "\t" $3 "\t" $2 }' | sort >"$tmp/tsv"
  cmp -s "$tmp/ours" "$tmp/tsv" || fail "$name: self costs or calls differ from cgcost --format=tsv"
  [ "$(awk -F '\t' '{ s += $2 } END { printf "%.0f", s }' "$tmp/ours")" = "$summary" ] \
    || fail "$name: the self costs do not add up to the total"
  functions=$(sed -n 's/^\([0-9,]*\) functions in .*/\1/p' "$tmp/text" | tr -d ,)
  [ "$functions" = "$(wc -l <"$tmp/ours")" ] || fail "$name: $functions functions counted, $(wc -l <"$tmp/ours") listed"
  rows "$tmp/text" | awk -F '\t' 'NR > 1 && $2 > last { bad = 1 } { last = $2 } END { exit bad }' \
    || fail "$name: the table is not in order of self cost"
done

# two inputs: every self cost and call count doubles
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
"$cgmerge" --format=text --no-demangle "$recdemo" >"$tmp/one" && "$cgmerge" --format=text --no-demangle "$recdemo" "$recdemo" >"$tmp/two" \
  || fail "cgmerge --format=text on two inputs"
rows "$tmp/one" | awk -F '\t' '{ print $1 "\t" 2 * $2 "\t" 2 * $3 }' | sort >"$tmp/doubled"
rows "$tmp/two" | sort >"$tmp/summed"
cmp -s "$tmp/doubled" "$tmp/summed" || fail "two inputs: self costs and calls are not the sums"
[ "$(grep -c '^Profile: ' "$tmp/two")" = 2 ] || fail "two inputs: not both named"

# several events: a column each, in the unit of each, ordered by the first
cat >"$tmp/two-events.out" <<'EOF'
events: Ir Dr
fn=main
1 10 7
cfn=work
calls=3 1
2 300 1
fn=work
1 300 1
fn=idle
1 0 50
EOF
"$cgmerge" --format=text "$tmp/two-events.out" >"$tmp/events" || fail "cgmerge --format=text, two events"
grep -q '^Event Ir: 310 Ir in all$' "$tmp/events" || fail "two events: Ir's total"
grep -q '^Event Dr: 58 Dr in all$' "$tmp/events" || fail "two events: Dr's total"
grep -q '^3 functions in 1 object; 1 arc carrying 3 calls\.$' "$tmp/events" || fail "two events: the counts"
sed -n '/^  %self/,$p' "$tmp/events" | awk 'NR > 1 { print $2, $3, $4, $5 }' >"$tmp/table"
printf '300 1 3 work\n10 7 0 main\n0 50 0 idle\n' | cmp -s - "$tmp/table" || fail "two events: the table: $(cat "$tmp/table")"
grep -q '^  %self  Ir Dr calls  function$' "$tmp/events" || fail "two events: the heading: $(grep self "$tmp/events")"
finish
