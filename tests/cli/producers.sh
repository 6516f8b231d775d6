#!/bin/sh
# Callgrind-format files from other producers, written at test time
# (gperftools' pprof --callgrind at the end, against pprof --text):
# pyprof2calltree from a cProfile run of a Python program, PHP's Xdebug
# in profiler mode, and kcachegrind-converters' dprof2calltree from a
# Perl trace.  Oracle: an awk summer over the same file
# (formats/callgrind.md's rules, nothing of cgtools): per function its
# self cost, the costs of the calls into it from other functions and of
# its calls to others; its total is the calls into it (self plus its
# calls when nothing calls it), and never below self plus its calls
# (cgcost raises such a total).  Functions of a cycle (even, odd, by the
# programs' structure) have at most their cycle's total, the calls into
# the cycle from outside (for pyprof2calltree, exactly what cProfile
# measured: pstats' cumulative times).  Each producer is skipped when
# missing; the test is skipped when all are.
. "${top_srcdir:-.}/tests/cli/common.sh"
here=$(cd "$top_srcdir/tests/cli/producers" && pwd)
ran=0

# expected_totals FILE [CYCLE-MEMBER...] — NAME<TAB>SELF<TAB>TOTAL per
# function, the first event, names compressed or not.  A function is a
# name in a file (these producers name no object): a name in several
# files is written "NAME [FILE]", as cgcost labels it.
expected_totals () {
  file=$1
  shift
  awk -v members="$*" '
    function value (space, v,   id, rest) {
      if (v !~ /^\([0-9]+\)/) return v
      id = substr (v, 2, index (v, ")") - 2); rest = substr (v, index (v, ")") + 1)
      if (rest != "") names[space, id] = substr (rest, 2)
      return names[space, id]
    }
    function function_of (name, in_file) {
      if (in_file == "???") in_file = ""
      key = in_file SUBSEP name
      if (!(key in known)) { known[key] = 1; n_files[name]++; file_of[key] = in_file; name_of[key] = name }
      return key
    }
    BEGIN { n = split (members, m, " "); for (i = 1; i <= n; i++) cycle[m[i]] = 1 }
    /^fl=/ { fl = value("fl", substr ($0, 4)); next }
    /^(cfl|cfi)=/ { cfile = value("fl", substr ($0, 5)); next }
    /^fn=/ { current = function_of(value("fn", substr ($0, 4)), fl); next }
    /^cfn=/ { cname = value("fn", substr ($0, 5)); next }
    /^calls=/ { callee = function_of(cname, cfile != "" ? cfile : fl); cfile = ""; in_call = 1; next }
    /^[0-9+*-]/ {
      if (!in_call) { self[current] += $2; next }
      in_call = 0
      if (callee == current) next
      if (cycle[name_of[current]] && cycle[name_of[callee]]) next
      if (cycle[name_of[callee]]) into_cycle += $2
      into[callee] += $2; called[callee] = 1; out[current] += $2
    }
    END {
      for (f in known) {
        t = called[f] ? into[f] : self[f] + out[f]
        if (t < self[f] + out[f]) { raise += self[f] + out[f] - t; t = self[f] + out[f] }
        if (cycle[name_of[f]]) t = into_cycle
        label = name_of[f]
        if (n_files[label] > 1) label = label " [" file_of[f] "]"
        printf "%s\t%.0f\t%.0f\n", label, self[f], t
      }
      printf "%.0f\n", raise > raises
    }' raises="$tmp/raises" "$file" | sort
}

# agrees WANT GOT [CYCLE-MEMBER...] — the same functions and self costs,
# and the same totals, except that a total may exceed the file's sums by
# at most what was raised in all (cgcost adds a function's raise to its
# costliest call in, so that it travels up to the callers: a caller of a
# raised function is raised too, by at most that), and a cycle member's
# may be below its cycle's (the calls into it, where they hold all its
# activations, bound it too)
agrees () {
  want=$1 got=$2
  shift 2
  awk -F '\t' -v r="$(cat "$tmp/raises")" -v members="$*" 'BEGIN { n = split (members, m, " "); for (i = 1; i <= n; i++) cycle[m[i]] = 1 }
    NR == FNR { self[$1] = $2; total[$1] = $3; next }
    !($1 in self) || $2 != self[$1] || (!cycle[$1] && $3 < total[$1]) || $3 - total[$1] > r { bad = 1 }
    { seen[$1] = 1 }
    END { for (f in self) if (!(f in seen)) bad = 1; exit bad }' "$want" "$got"
}

# check PRODUCER FILE CYCLE-MEMBER... — cgcost's tsv against the oracle,
# and the cycle members estimated, the rest exact (or raised, with the
# warning).
check () {
  producer=$1 file=$2
  shift 2
  expect 0 "$cgcost" --format=tsv --exactness "$file" || return
  cp "$tmp/err" "$tmp/cost.err"
  awk -F '\t' 'NR > 1 { print $1 "\t" $3 "\t" $4 }' "$tmp/out" | sort >"$tmp/got"
  awk -F '\t' 'NR > 1 && $5 == "estimated" { print $1 }' "$tmp/out" | sort >"$tmp/estimated"
  expected_totals "$file" "$@" >"$tmp/want"
  n=$(wc -l <"$tmp/want")
  [ "$n" -ge 5 ] || fail "$producer: only $n functions in its file"
  agrees "$tmp/want" "$tmp/got" "$@" \
    || fail "$producer: totals differ from the file's sums (raises $(cat "$tmp/raises")): $(diff "$tmp/want" "$tmp/got" | head -6)"
  for member in "$@"; do
    grep -qx "$member" "$tmp/estimated" || fail "$producer: cycle member $member not marked estimated"
  done
  raised=$(grep -vxF "$(printf '%s\n' "$@")" "$tmp/estimated" | wc -l)
  if [ "$raised" -gt 0 ]; then
    grep -q "raised to that sum, marked estimated" "$tmp/cost.err" \
      || fail "$producer: $raised totals estimated outside cycles, without the warning"
  fi
  # cgcycles and cgcost: the same cycles, the same numbers
  "$cgcycles" --format=text "$file" 2>/dev/null | awk '/^<cycle [0-9]+>:/ { c = substr ($2, 1, length ($2) - 2) }
    c && match ($0, /^    +[0-9,.]+  /) { print c "\t" substr ($0, RLENGTH + 1) }' | sort >"$tmp/cycles"
  "$cgcost" --format=text "$file" 2>/dev/null | awk '/^Flat profile/ { on = 1; next } on && /^$/ && ++blank > 1 { exit }
    on && match ($0, / <cycle [0-9]+>$/) {
      number = substr ($0, RSTART + 8, RLENGTH - 9); row = substr ($0, 1, RSTART - 1)
      sub (/^ *[0-9.]+ +[0-9,.]+ +(~ +)?[0-9.]+ +[0-9,.]+ +[0-9,]+  /, "", row)
      print number "\t" row
    }' | sort >"$tmp/marked"
  [ $# -eq 0 ] || [ -s "$tmp/cycles" ] || fail "$producer: cgcycles lists no cycle"
  cmp -s "$tmp/cycles" "$tmp/marked" \
    || fail "$producer: cgcycles and cgcost name cycles differently: $(diff "$tmp/cycles" "$tmp/marked" | head -4)"
  cut -f 2 "$tmp/cycles" | sort >"$tmp/members"
  comm -23 "$tmp/members" "$tmp/estimated" | grep -q . && fail "$producer: a cycle member's total is not estimated"
  echo "$producer: $n functions, $(wc -l <"$tmp/cycles") in cycles, $raised raised"
}

if command -v pyprof2calltree >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  ran=$((ran + 1))
  (cd "$tmp" && python3 -m cProfile -o py.prof "$here/workload.py" && pyprof2calltree -i py.prof -o py.out) \
    >"$tmp/log" 2>&1 || fail "pyprof2calltree: $(tail -3 "$tmp/log")"
  check pyprof2calltree "$tmp/py.out" even odd
  # cProfile's calls from one caller to one callee never nest, so odd,
  # called from even alone, has the calls into it for its total, which
  # pstats prints as its cumulative time; even, called from main and
  # odd, its cycle's (the calls from odd nest in main's): both are
  # cProfile's own, where odd had its cycle's total, 8% over
  (cd "$tmp" && python3 -c 'import pstats
for (file, line, name), (cc, nc, tt, ct, callers) in pstats.Stats("py.prof").stats.items():
    if name in ("even", "odd"):
        print("%s\t%d" % (name, round(ct * 1e9)))') >"$tmp/py.pstats" || fail "pstats of the workload"
  for f in even odd; do
    want=$(awk -F '\t' -v f=$f '$1 == f { print $2 }' "$tmp/py.pstats")
    got=$(awk -F '\t' -v f=$f '$1 == f { print $4 }' "$tmp/out")
    d=$(awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
    [ -n "$want" ] && [ "$d" -le 30 ] || fail "pyprof2calltree: $f's total $got, cProfile's cumulative time $want"
  done
  # names with apostrophes stay whole; one name in two files is two functions
  grep -q "^<method 'read' of '_io.StringIO' objects>	" "$tmp/out" \
    || fail "pyprof2calltree: <method 'read' of '_io.StringIO' objects> is not read whole"
  [ "$(grep -c '^leaf \[.*\(workload\|helper\).py\]	' "$tmp/out")" -eq 2 ] \
    || fail "pyprof2calltree: the leaves of workload.py and helper.py are not two functions"
  # a program that imports: the top-level exec of the script is also
  # called by importlib inside it, so a cycle holds the run's entry, and no
  # call into that cycle from outside is recorded.  Its total is what
  # cProfile itself measured of builtins.exec (pstats' cumulative time),
  # the whole run, and no member of it is below its own cumulative time
  printf '%s\n' "import sys" "sys.path.insert(0, '$here')" "import helper" \
    "print(sum(helper.leaf(i) for i in range(20000)))" >"$tmp/importer.py"
  (cd "$tmp" && python3 -m cProfile -o imp.prof importer.py && pyprof2calltree -i imp.prof -o imp.out) \
    >"$tmp/log" 2>&1 || fail "pyprof2calltree, an importer: $(tail -3 "$tmp/log")"
  python3 -c 'import pstats, sys
for (file, line, name), (cc, nc, tt, ct, callers) in pstats.Stats(sys.argv[1]).stats.items():
    if name in ("<built-in method builtins.exec>", "<module>"):
        print("%s\t%d" % (name if file in ("~", "importer.py") else name + " [" + file + "]", round(ct * 1e9)))' \
    "$tmp/imp.prof" >"$tmp/imp.pstats" || fail "pstats of the importer"
  expect 0 "$cgcost" --format=tsv "$tmp/imp.out"
  exec_ct=$(awk -F '\t' '$1 == "<built-in method builtins.exec>" { print $2 }' "$tmp/imp.pstats")
  got=$(awk -F '\t' '$1 == "<built-in method builtins.exec>" { print $4 }' "$tmp/out")
  # (pyprof2calltree rounds each cost to the nanosecond on its own)
  near () { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && b > 0 && d * d <= (b / 1e4 + 100) ^ 2) }'; }
  near "$got" "$exec_ct" \
    || fail "pyprof2calltree, an importer: builtins.exec's total $got, cProfile's cumulative time $exec_ct"
  # and no function of a name in one file only is below what cProfile
  # measured of it: a cycle member's calls into it bound its total only
  # where they hold all its activations (not exec's, whose first is none)
  (cd "$tmp" && python3 -c 'import pstats, collections
st = pstats.Stats("imp.prof").stats
n = collections.Counter(name for (file, line, name) in st)
for (file, line, name), (cc, nc, tt, ct, callers) in st.items():
    if n[name] == 1:
        print("%s\t%d" % (name, round(ct * 1e9)))') >"$tmp/imp.all" || fail "pstats of the importer"
  awk -F '\t' 'NR == FNR { ct[$1] = $2; next } ($1 in ct) && $4 < ct[$1] - 100 { print $1 ": " $4 " < " ct[$1] }' \
    "$tmp/imp.all" "$tmp/out" >"$tmp/below"
  [ ! -s "$tmp/below" ] || fail "pyprof2calltree, an importer: totals below cProfile's: $(head -3 "$tmp/below")"
  module_ct=$(awk -F '\t' '$1 == "<module>" { print $2 }' "$tmp/imp.pstats")
  got=$(awk -F '\t' '$1 ~ /^<module>( \[.*importer.py\])?$/ { print $4 }' "$tmp/out")
  [ -n "$got" ] && [ "$got" -ge "$module_ct" ] \
    || fail "pyprof2calltree, an importer: the script's total $got, below cProfile's $module_ct"
  # cgcycles says the same total of that cycle, in a unit of time (the
  # event is named "ns"): within half its last digit
  shown=$("$cgcycles" --format=text "$tmp/imp.out" | awk '/^<cycle 1>:/ { sub (/.*, total /, ""); sub (/ \(.*/, ""); gsub (/,/, ""); print }')
  awk -v shown="$shown" -v ct="$exec_ct" 'BEGIN {
      split (shown, p, " "); f = p[2] == "s" ? 1e9 : p[2] == "ms" ? 1e6 : p[2] == "\302\265s" ? 1e3 : p[2] == "ns" ? 1 : 0
      d = p[1] * f - ct; exit !(f > 0 && d * d <= (f / 200 + ct / 1e4 + 100) ^ 2) }' \
    || fail "pyprof2calltree, an importer: cgcycles' cycle total $shown, cProfile's $exec_ct ns"
else
  echo "pyprof2calltree is not installed: skipped"
fi

if php -n -d zend_extension=xdebug -r 'exit(extension_loaded("xdebug") ? 0 : 1);' >/dev/null 2>&1; then
  ran=$((ran + 1))
  php -n -d zend_extension=xdebug -d xdebug.mode=profile -d xdebug.output_dir="$tmp" \
    -d xdebug.profiler_output_name=cachegrind.out.php "$here/workload.php" >"$tmp/log" 2>&1 \
    || fail "xdebug: $(tail -3 "$tmp/log")"
  check xdebug "$tmp/cachegrind.out.php" even odd
  # Xdebug writes each call's times apart, each rounded to its 10 ns:
  # {main}'s total lies some units above the self costs' sum, and that
  # is no overlap of calls to warn of (it was, on every Xdebug profile)
  grep -q "exceed the profile's total" "$tmp/cost.err" \
    && fail "xdebug: Xdebug's rounding taken for overlapping calls: $(cat "$tmp/cost.err")"
  grep -q "^Pad->width	" "$tmp/out" || fail "xdebug: no Pad->width"
  # xdebug.profiler_append=1: two runs in one file, each after a line
  # "==== NEW PROFILING FILE ====..."; read as the two profiles are (the
  # program calls fib(10) 40 times a run)
  for run in 1 2; do
    php -n -d zend_extension=xdebug -d xdebug.mode=profile -d xdebug.output_dir="$tmp" -d xdebug.profiler_append=1 \
      -d xdebug.profiler_output_name=appended.php "$here/workload.php" >"$tmp/log" 2>&1 || fail "xdebug append: $(tail -3 "$tmp/log")"
  done
  grep -q '^==== NEW PROFILING FILE ' "$tmp/appended.php" || fail "test set-up: xdebug appended no profile"
  awk '/^==== NEW PROFILING FILE / { n++; next } n { print > (dir "/run" n ".php") }' dir="$tmp" "$tmp/appended.php"
  "$cgcost" --format=tsv "$tmp/run1.php" "$tmp/run2.php" >"$tmp/runs.tsv" 2>/dev/null || fail "xdebug: the two runs apart"
  expect 0 "$cgcost" --format=tsv "$tmp/appended.php" || fail "xdebug: a file of appended profiles"
  cmp -s "$tmp/runs.tsv" "$tmp/out" || fail "xdebug append: not the two runs' sum: $(diff "$tmp/runs.tsv" "$tmp/out" | head -4)"
  [ "$(awk -F '\t' '$1 == "fib" { print $2 }' "$tmp/out")" = 80 ] || fail "xdebug append: fib's calls: $(grep '^fib' "$tmp/out")"
else
  echo "PHP with Xdebug is not installed: skipped"
fi

# kcachegrind-converters: dprof2calltree from a Devel::DProf trace made
# here (the profiler itself is not packaged); besides the file's sums,
# the trace's own exact totals (each tick charged once to every distinct
# function on the stack: Kaes's Min_E)
if command -v dprof2calltree >/dev/null 2>&1; then
  ran=$((ran + 1))
  awk -f "$here/tmon.awk" >"$tmp/tmon.out"
  (cd "$tmp" && dprof2calltree -f tmon.out -o dprof.out) >"$tmp/log" 2>&1 || fail "dprof2calltree: $(tail -3 "$tmp/log")"
  check dprof2calltree "$tmp/dprof.out"
  awk '/^&/ { name[$2] = ($3 == "main") ? $4 : $3 "::" $4; next }
    /^\+/ { stack[++d] = $2; next }
    /^-/ { d--; next }
    /^@/ {
      self[stack[d]] += $4; split ("", seen)
      for (i = 1; i <= d; i++) if (!(stack[i] in seen)) { seen[stack[i]] = 1; total[stack[i]] += $4 }
    }
    END { for (f in name) if (total[f]) printf "%s\t%d\t%d\n", name[f], self[f], total[f] }' "$tmp/tmon.out" \
    | sort >"$tmp/trace"
  cmp -s "$tmp/trace" "$tmp/got" || fail "dprof2calltree: totals differ from the trace's: $(diff "$tmp/trace" "$tmp/got" | head -4)"
else
  echo "dprof2calltree (kcachegrind-converters) is not installed: skipped"
fi

# gperftools' CPU profiler and its pprof --callgrind (Debian:
# google-perftools), on data/perf/perfrec.c: pprof writes each call's
# samples as its count too ("calls=56" above a cost of 56 Hits), which
# are dropped with a warning.  Oracle: pprof --text's flat and cumulative
# samples per function (ping and pong, a cycle, have estimated totals: the
# export sums its stacks' frames, so that calls between them nest).
profiler=$(ls /usr/lib/*/libprofiler.so.0 /usr/lib/libprofiler.so.0 2>/dev/null | head -n 1)
if command -v google-pprof >/dev/null 2>&1 && [ -n "$profiler" ]; then
  ran=$((ran + 1))
  ${CC:-cc} -O0 -g -o "$tmp/perfrec" "$data/perf/perfrec.c" || fail "cannot build perfrec"
  CPUPROFILE="$tmp/cpu.prof" LD_PRELOAD="$profiler" "$tmp/perfrec" 120 >"$tmp/log" 2>&1 || fail "gperftools: $(tail -3 "$tmp/log")"
  google-pprof --callgrind "$tmp/perfrec" "$tmp/cpu.prof" >"$tmp/pprof.out" 2>"$tmp/log" || fail "pprof --callgrind: $(tail -3 "$tmp/log")"
  google-pprof --text --nodecount=100000 "$tmp/perfrec" "$tmp/cpu.prof" 2>/dev/null \
    | awk 'NR > 1 && NF == 6 { print $6 "\t" $1 "\t" $4 }' | sort >"$tmp/pprof.text"
  expect 0 "$cgcost" --format=tsv --exactness "$tmp/pprof.out" \
    && expect_message "as gperftools' pprof --callgrind writes its samples"
  awk -F '\t' 'NR == FNR { self[$1] = $2; cum[$1] = $3; next }
    FNR > 1 && $2 != 0 { print "  " $1 ": " $2 " calls"; bad++ }
    FNR > 1 && $3 != self[$1] && ($1 in self) { print "  " $1 ": self " $3 "; pprof " self[$1]; bad++ }
    FNR > 1 && ($1 in cum) && $5 == "exact" { n++; if ($4 != cum[$1]) { print "  " $1 ": " $3 ", " $4 "; pprof " self[$1] ", " cum[$1]; bad++ } }
    END { exit bad > 0 || n < 4 }' "$tmp/pprof.text" "$tmp/out" >"$tmp/cmp" || fail "gperftools: against pprof --text: $(head -5 "$tmp/cmp")"
  for f in main burn; do
    grep -q "^$f	.*	exact$" "$tmp/out" || fail "gperftools: $f's total is not exact: $(grep "^$f	" "$tmp/out")"
  done
else
  echo "gperftools' profiler and pprof (google-perftools) are not installed: skipped"
fi

[ "$ran" -gt 0 ] || skip "none of pyprof2calltree, PHP's Xdebug, dprof2calltree and gperftools is installed"
finish
