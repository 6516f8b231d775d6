#!/bin/sh
# cgcost --format=callgrind read by the tools it is for.  On every bundled
# profile, on files other producers write at test time (when installed),
# and on folded stacks with recursion (the bundled ones, and random ones
# with self- and mutual recursion made here):
#  - the export keeps KCachegrind's format rules (formats/callgrind.md),
#    checked by an awk reader of the export: every compressed id defined
#    once before its use, one function per fn id (the same object and
#    file wherever the id is used: KCachegrind binds an id to one
#    function), a cost line after each calls=, a call that carries cost
#    counts at least one call (callgrind_annotate takes a calls=0 line's
#    cost for self cost), no more counts than events, totals: the sum of
#    the self costs;
#  - callgrind_annotate --inclusive=yes of the export shows cgcost's
#    totals for every plain function (annotate_compare, common.sh).
. "${top_srcdir:-.}/tests/cli/common.sh"
annotate=${CALLGRIND_ANNOTATE:-}
here=$(cd "$top_srcdir/tests/cli/producers" && pwd)

# format_rules EXPORT — prints what breaks a rule, exits 1 then.
format_rules () {
  awk '
    function bad (what) { if (++errors <= 5) printf "  line %d: %s: %s\n", NR, what, $0 }
    function value (space, v, key,   id, rest) {
      if (v !~ /^\([0-9]+\)/) return v
      id = substr (v, 2, index (v, ")") - 2); rest = substr (v, index (v, ")") + 1)
      key = space SUBSEP id
      if (rest != "") {
        if (key in defined) bad ("id defined twice")
        defined[key] = substr (rest, 2)
      } else if (!(key in defined)) bad ("id used before its definition")
      return space == "fn" ? id : defined[key]
    }
    NR == 1 && $0 != "# callgrind format" { bad ("no magic line") }
    /^events:/ { events = NF - 1; next }
    /^summary:/ { summary = 1; next }
    /^totals:/ { for (i = 2; i <= NF; i++) if ($i != self[i]) bad ("totals: is not the sum of self costs"); next }
    /^ob=/ { ob = value("ob", substr ($0, 4)); next }
    /^fl=/ { fl = value("fl", substr ($0, 4)); next }
    /^cob=/ { cob = value("ob", substr ($0, 5)); next }
    /^cfi=/ { cfi = value("fl", substr ($0, 5)); next }
    /^(fn|cfn)=/ {
      call = /^cfn=/
      id = value("fn", substr ($0, call ? 5 : 4))
      where = (call ? cob : ob) SUBSEP (call ? cfi : fl)
      if (id in place && place[id] != where) bad ("one fn id for functions of two objects or files")
      place[id] = where
      next
    }
    /^calls=/ { split ($0, w, /[= ]/); calls = w[2] + 0; pending = 1; next }
    /^[0-9+*-]/ {
      if (!events) bad ("cost line before events:")
      if (NF - 1 > events) bad ("more counts than events")
      if (pending) {
        cost = 0; for (i = 2; i <= NF; i++) cost += $i
        if (calls == 0 && cost > 0) bad ("calls=0 with a cost (callgrind_annotate adds it to self)")
        pending = 0
      } else for (i = 2; i <= NF; i++) self[i] += $i
      next
    }
    pending { bad ("no cost line after calls=") }
    END { if (!summary) bad ("no summary:"); exit errors > 0 }' "$1"
}

# check NAME PROFILE — the export of PROFILE against both.
check () {
  name=$1 profile=$2
  "$cgcost" --format=callgrind -o "$tmp/export.out" "$profile" 2>"$tmp/export.err" \
    || { fail "$name: cgcost --format=callgrind failed: $(head -c 300 "$tmp/export.err")"; return; }
  format_rules "$tmp/export.out" || fail "$name: the export breaks the format's rules"
  "$cgcost" --format=tsv "$profile" 2>/dev/null >"$tmp/ours.tsv"
  # read back by cgtools: the same self costs and totals (the calls of
  # arcs that counted none, folded stacks', are made up: one per arc)
  "$cgcost" --format=tsv "$tmp/export.out" 2>/dev/null >"$tmp/again.tsv" || fail "$name: the export does not read back"
  cut -f 1,3,4 "$tmp/ours.tsv" >"$tmp/ours.cut"
  cut -f 1,3,4 "$tmp/again.tsv" >"$tmp/again.cut"
  cmp -s "$tmp/ours.cut" "$tmp/again.cut" \
    || fail "$name: totals differ when the export is read back: $(diff "$tmp/ours.cut" "$tmp/again.cut" | head -4)"
  if [ -n "$annotate" ] && [ -x "$annotate" ]; then
    (cd "$tmp" && "$annotate" --inclusive=yes --threshold=100 --auto=no export.out) >"$tmp/annotate.txt" 2>"$tmp/err" \
      || { fail "$name: callgrind_annotate refuses the export: $(head -c 300 "$tmp/err")"; return; }
    objects=objects
    grep -q '^ob=.' "$tmp/export.out" || objects=no-objects
    summary=$(annotate_compare "$tmp/ours.tsv" "$tmp/annotate.txt" $objects) \
      || fail "$name: callgrind_annotate's inclusive totals of the export differ from cgcost's: $summary"
    echo "$name: $(echo "$summary" | tail -1)"
  fi
}

for profile in "$data"/callgrind/*/callgrind.out.* "$data"/folded/*.folded; do
  check "$(basename "$profile")" "$profile"
done

# random folded stacks: self-recursion, mutual recursion through three
# functions, and a name that two of the stacks' roots share
awk 'BEGIN {
  srand (7)
  split ("main parse expr term factor fib walk visit leaf io", f, " ")
  for (s = 0; s < 400; s++) {
    line = (s % 5 == 0) ? "thread_start" : "main"
    depth = 1 + int (rand () * 30)
    cur = 2 + int (rand () * 9)
    for (d = 0; d < depth; d++) {
      line = line ";" f[cur]
      r = rand ()
      if (f[cur] == "expr") cur = 4
      else if (f[cur] == "term") cur = 5
      else if (f[cur] == "factor") cur = (r < 0.6) ? 3 : 10
      else if (f[cur] == "fib") cur = (r < 0.8) ? 6 : 10
      else if (f[cur] == "walk") cur = (r < 0.5) ? 8 : 7
      else if (f[cur] == "visit") cur = (r < 0.7) ? 7 : 9
      else cur = 2 + int (rand () * 9)
    }
    print line, 1 + int (rand () * 1000)
  }
}' >"$tmp/random.folded"
check random.folded "$tmp/random.folded"

# another producer's timings that do not add up outside any cycle: mid's
# call measured 50 against its self 30 plus a call of 21; mid is raised
# to 51, and its call with it, so that main is 61 and the export's calls
# into mid add up to its total for callgrind_annotate
printf '%s\n' '# callgrind format' 'creator: xdebug 3' 'events: Time' 'fl=(1) p.php' 'fn=(1) main' '1 10' \
  'cfl=(1)' 'cfn=(2) mid' 'calls=1 0' '1 50' 'fn=(2)' '2 30' 'cfl=(1)' 'cfn=(3) leaf' 'calls=1 0' '2 21' \
  'fn=(3)' '3 21' >"$tmp/raised.out"
"$cgcost" --format=tsv "$tmp/raised.out" 2>/dev/null | awk -F '\t' '$1 == "main" { m = $4 } $1 == "mid" { d = $4 }
  END { exit !(m == 61 && d == 51) }' || fail "raised totals: $("$cgcost" --format=tsv "$tmp/raised.out" 2>&1)"
check raised "$tmp/raised.out"

# a call only a deeper activation made, once (Lua's table.sort, called
# from Lua code: luaD_precall'2 -> sort under a plain luaD_precall): no
# call of two to take one from, so the whole call goes on f'2's line.
# The file names start with the directory callgrind_annotate runs in,
# which it shortens in fl= but not in cfi=: it then sums each function's
# own lines, and read f as 1960 of 1001 before
printf '%s\n' '# callgrind format' 'events: Ir' "fl=(1) $tmp/src/a.c" 'fn=(1) main' '1 1' 'cfn=(2) f' 'calls=1 1' \
  '1 1000' 'fn=(2)' '1 10' 'cfn=(3) g' 'calls=1 1' '1 990' 'fn=(3)' '1 10' "cfn=(4) f'2" 'calls=1 1' '1 980' \
  'fn=(4)' '1 10' 'cfn=(5) h' 'calls=1 1' '1 970' 'fn=(5)' '1 970' >"$tmp/deeper-once.out"
check deeper-once "$tmp/deeper-once.out"

# other producers' files, when they are installed
if command -v pyprof2calltree >/dev/null 2>&1; then
  (cd "$tmp" && python3 -m cProfile -o py.prof "$here/workload.py" && pyprof2calltree -i py.prof -o py.out) \
    >/dev/null 2>&1 && check pyprof2calltree "$tmp/py.out"
fi
if php -n -d zend_extension=xdebug -r 'exit(extension_loaded("xdebug") ? 0 : 1);' >/dev/null 2>&1; then
  php -n -d zend_extension=xdebug -d xdebug.mode=profile -d xdebug.output_dir="$tmp" \
    -d xdebug.profiler_output_name=cachegrind.out.php "$here/workload.php" >/dev/null 2>&1 \
    && check xdebug "$tmp/cachegrind.out.php"
fi
if command -v dprof2calltree >/dev/null 2>&1; then
  awk -f "$here/tmon.awk" >"$tmp/tmon.out"
  (cd "$tmp" && dprof2calltree -f tmon.out -o dprof.out) >/dev/null 2>&1 && check dprof2calltree "$tmp/dprof.out"
fi
[ -n "$annotate" ] || echo "callgrind_annotate is not installed: only the format's rules checked"
finish
