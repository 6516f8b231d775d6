#!/bin/sh
# A callgrind profile and perf samples of one program merged (cgmerge's
# events: Ir from callgrind's calls, cpu-clock from perf's stacks): each
# event's totals are its own source's, Ir by callgrind's measured
# inclusive costs and cpu-clock by Min_E over perf's call tree, which
# holds all of cpu-clock's self costs (no call measured it).  Oracles:
# cgcost on each file alone, which perf report --children and
# callgrind_annotate check elsewhere; and no total below its self cost.
# data/perf/perfrec.c, built with frame pointers.  Skipped (77) where
# valgrind or perf is missing or cannot record.
. "${top_srcdir:-.}/tests/cli/common.sh"
[ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] || skip "valgrind is not installed"
command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
${CC:-cc} -O0 -fno-omit-frame-pointer -o "$tmp/perfrec" "$data/perf/perfrec.c" || fail "cannot build perfrec"
perf record -q -g -e cpu-clock -o "$tmp/perf.data" "$tmp/perfrec" 60 >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/perf.data" >"$tmp/perf.txt" 2>/dev/null || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
"$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/perfrec" 2 >/dev/null 2>&1 || fail "valgrind"

# rows EVENT FILES... — NAME<TAB>SELF<TAB>TOTAL of that event
rows () {
  event=$1
  shift
  "$cgcost" --format=tsv --event="$event" "$@" | awk -F '\t' 'NR > 1 { print $1 "\t" $3 "\t" $4 }' | sort
}
rows cpu-clock "$tmp/perf.txt" >"$tmp/perf.rows"
rows cpu-clock "$tmp/cg.out" "$tmp/perf.txt" >"$tmp/merged.rows"
rows Ir "$tmp/cg.out" >"$tmp/cg.rows"
rows Ir "$tmp/cg.out" "$tmp/perf.txt" >"$tmp/merged-ir.rows"
for f in main ping pong burn; do
  grep -q "^$f	" "$tmp/perf.rows" || fail "test set-up: perf sampled no $f"
done
# functions of one name and several objects are labelled in the merge
# only where one source names them so: compared where both have a label
join -t "$(printf '\t')" "$tmp/perf.rows" "$tmp/merged.rows" \
  | awk -F '\t' '$2 != $4 || $3 != $5 { print "  " $1 ": perf alone " $2 " " $3 ", merged " $4 " " $5; bad++ }
                 END { exit bad > 0 || NR < 5 }' >"$tmp/why" || fail "cpu-clock: $(head -5 "$tmp/why")"
join -t "$(printf '\t')" "$tmp/cg.rows" "$tmp/merged-ir.rows" \
  | awk -F '\t' '$2 != $4 || $3 != $5 { print "  " $1 ": callgrind alone " $2 " " $3 ", merged " $4 " " $5; bad++ }
                 END { exit bad > 0 || NR < 5 }' >"$tmp/why" || fail "Ir: $(head -5 "$tmp/why")"
awk -F '\t' '$3 < $2 { print "  " $1 ": self " $2 ", total " $3; bad++ } END { exit bad > 0 }' "$tmp/merged.rows" \
  >"$tmp/why" || fail "cpu-clock totals below self: $(head -3 "$tmp/why")"

# a gmon.out's time merged with callgrind's Ir: no call measured the time
# and no tree holds it, so its totals are self costs, with a warning
# (they were the calls' nothing, below the self costs); Ir as before
if ${CC:-cc} -O0 -pg -o "$tmp/perfrec-pg" "$data/perf/perfrec.c" 2>/dev/null \
   && (cd "$tmp" && ./perfrec-pg 40 >/dev/null 2>&1) && [ -s "$tmp/gmon.out" ]; then
  # SIGPROF ignored from the start: the -pg program's profil(3) puts back
  # the action it found when it stops its timer, and valgrind delivers a
  # tick late, after that (1 run in 12 died of "Profiling timer expired")
  # in a directory of its own: its gmon.out goes to the working directory
  # (it was left in the build tree's top, and committed once)
  mkdir "$tmp/vg"
  (cd "$tmp/vg" && trap '' PROF && exec "$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/pg.out" "$tmp/perfrec-pg" 2) \
    >/dev/null 2>&1 \
    || fail "valgrind perfrec-pg"
  expect 0 "$cgcost" --format=tsv --event=time --executable="$tmp/perfrec-pg" "$tmp/pg.out" "$tmp/gmon.out" \
    && expect_message "no call measured the cost of time, nor does a call tree hold it"
  awk -F '\t' 'NR > 1 && $4 != $3 { print "  " $1 ": self " $3 ", total " $4; bad++ }
    NR > 1 && $1 == "burn" && $3 > 0 { burn = 1 }
    END { if (!burn) print "  no time in burn"; exit bad > 0 || !burn }' "$tmp/out" >"$tmp/why" \
    || fail "gmon.out with callgrind: time totals are not self costs: $(head -3 "$tmp/why")"
  rows Ir "$tmp/pg.out" >"$tmp/pg.rows"
  "$cgcost" --format=tsv --event=Ir --executable="$tmp/perfrec-pg" "$tmp/pg.out" "$tmp/gmon.out" 2>/dev/null \
    | awk -F '\t' 'NR > 1 { print $1 "\t" $3 "\t" $4 }' | sort >"$tmp/pg-merged.rows"
  # the executable named as a relative path is the object callgrind saw
  # mapped (its absolute path): one function each, not two
  case $cgcost in /*) cost=$cgcost ;; *) cost=$(pwd)/$cgcost ;; esac
  (cd "$tmp" && "$cost" --format=tsv --event=time --executable=./perfrec-pg pg.out gmon.out) >"$tmp/rel.tsv" 2>/dev/null \
    || fail "gmon.out with callgrind, --executable=./perfrec-pg"
  [ "$(grep -c '^burn\(	\| \[\)' "$tmp/rel.tsv")" = 1 ] && grep -q '^burn	' "$tmp/rel.tsv" \
    || fail "gmon.out read with a relative --executable and callgrind: burn is not one function: $(grep '^burn' "$tmp/rel.tsv")"
  join -t "$(printf '\t')" "$tmp/pg.rows" "$tmp/pg-merged.rows" \
    | awk -F '\t' '$2 != $4 || $3 != $5 { print "  " $1 ": callgrind alone " $2 " " $3 ", merged " $4 " " $5; bad++ }
                   END { exit bad > 0 || NR < 5 }' >"$tmp/why" || fail "gmon.out with callgrind, Ir: $(head -5 "$tmp/why")"
fi
finish
