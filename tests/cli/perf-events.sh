#!/bin/sh
# perf record of two kinds of event at once, cpu-clock (a software event)
# and sched:sched_switch (a tracepoint), of a shell that runs
# data/perf/perfrec.c and waits for it and for a sleep: perf script prints
# each kind with its own fields (the tracepoint's samples with [cpu] and
# without a period, cpu-clock's with a period and without a cpu), and
# both are read, each as its event.  Oracle: a brute-force Min_E over the
# same text per event (each sample's period, 1 without one, charged once
# to every distinct symbol on its stack).  Skipped (77) where perf is
# missing or cannot record a tracepoint.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
${CC:-cc} -O0 -fno-omit-frame-pointer -o "$tmp/perfrec" "$data/perf/perfrec.c" || fail "cannot build perfrec"
perf record -q -g -e cpu-clock -e sched:sched_switch -o "$tmp/mix.data" \
  sh -c "'$tmp/perfrec' 40; sleep 0.05; '$tmp/perfrec' 40" >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/mix.data" >"$tmp/mix.txt" 2>/dev/null \
  || skip "perf cannot record cpu-clock and sched:sched_switch here: $(head -c 300 "$tmp/err")"
# set-up: the two layouts
grep -Eq '^[^	]* \[[0-9]+\] +[0-9.]+: sched:sched_switch: ' "$tmp/mix.txt" \
  && grep -Eq '^[^	[]* [0-9.]+: +[0-9]+ +cpu-clock: *$' "$tmp/mix.txt" \
  || fail "test set-up: perf script printed no tracepoint sample with [cpu] beside cpu-clock ones without it"

# brute EVENT — NAME<TAB>TOTAL over the text, [unknown] frames left out
brute () {
  awk -v want="$1" '
    function flush () { if (inside && event == want) for (f in seen) total[f] += period; delete seen; inside = 0 }
    /^[^\t]/ && NF {
      flush()
      event = ""; period = 1
      for (i = 2; i <= NF; i++)
        if ($i ~ /:$/ && $i !~ /^[0-9]+\.[0-9]+:$/) {
          event = substr ($i, 1, length ($i) - 1)
          if ($(i - 1) ~ /^[0-9]+$/ && $(i - 2) ~ /^[0-9]+\.[0-9]+:$/) period = $(i - 1)
          break
        }
      inside = 1; next
    }
    /^\t/ { s = $0; sub(/^\t *[0-9a-f]+ /, "", s); sub(/ \([^()]*\)$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s)
            if (s != "[unknown]") seen[s] = 1; next }
    /^$/ { flush() }
    END { flush(); for (f in total) printf "%s\t%s\n", f, total[f] }' "$tmp/mix.txt" | sort
}

for event in cpu-clock sched:sched_switch; do
  expect 0 "$cgcost" --format=tsv --event="$event" "$tmp/mix.txt" || continue
  brute "$event" >"$tmp/want"
  [ "$(wc -l <"$tmp/want")" -ge 5 ] || fail "test set-up: $event has $(wc -l <"$tmp/want") functions"
  # names labelled with their object (ambiguous ones) are left out
  awk -F '\t' 'NR == FNR { want[$1] = $2; next }
    FNR > 1 && $1 !~ / \[.*\]$/ && ($1 in want) { n++; if ($4 != want[$1]) { print "  " $1 ": " $4 ", brute force " want[$1]; bad++ } }
    END { if (n < 5) print "  only " n " functions compared"; exit bad > 0 || n < 5 }' "$tmp/want" "$tmp/out" >"$tmp/why" \
    || fail "$event: $(head -5 "$tmp/why")"
done
# a period is the event's unit (cpu-clock's nanoseconds); a sample without one counts 1
expect 0 "$cgcost" --format=text --event=sched:sched_switch "$tmp/mix.txt" \
  && grep -q '^Event: sched:sched_switch, [0-9,]* samples in all$' "$tmp/out" || fail "sched:sched_switch's unit: $(head -3 "$tmp/out")"
# gprof's layout says so too: a count of cpu-clock is a nanosecond of its
# period, not one of gprof's samples ("Each sample counts as 1e-09
# seconds." was said of it), and a tracepoint's count is a sample
expect 0 "$cgcost" --format=gprof --method=gprof --event=cpu-clock "$tmp/mix.txt" \
  && sed -n 3p "$tmp/out" | grep -qx 'Each count is 1e-09 seconds of cpu-clock, not a sample\.' \
  || fail "gprof's layout, cpu-clock's counts: $(sed -n 3p "$tmp/out")"
# and the call graph's line gives no bytes per sample (0) nor a sample's
# share (0.00% of an ns): the whole, in seconds, at most the sum of the
# samples' periods (a sample with no known frame is nobody's)
secs=$(awk '/^[^\t]/ && / cpu-clock: *$/ { for (i = 2; i <= NF; i++) if ($i == "cpu-clock:") s += $(i - 1) }
            END { printf "%.6f", s / 1e9 }' "$tmp/mix.txt")
line=$(grep '^granularity:' "$tmp/out")
case $line in
  "granularity: counts per function, no histogram, "*" seconds in all") ;;
  *) fail "gprof's layout, cpu-clock's granularity line: $line" ;;
esac
shown=$(echo "$line" | awk '{ print $(NF - 3) }')
awk -v a="$shown" -v b="$secs" 'BEGIN { exit !(a > 0 && a <= b + 0.005) }' \
  || fail "gprof's layout, cpu-clock's granularity line: $shown s, of $secs s of periods"
expect 0 "$cgcost" --format=gprof --method=gprof --event=sched:sched_switch "$tmp/mix.txt" \
  && sed -n 3p "$tmp/out" | grep -qx 'Counts are samples, not seconds\.' \
  || fail "gprof's layout, sched:sched_switch's counts: $(sed -n 3p "$tmp/out")"
# an event given terms is named as perf prints it, in its unit
# (cpu-clock/call-graph=fp/ counts nanoseconds as cpu-clock does)
if perf record -q -e 'cpu-clock/call-graph=fp/' -o "$tmp/term.data" "$tmp/perfrec" 20 >/dev/null 2>&1 \
   && perf script -i "$tmp/term.data" >"$tmp/term.txt" 2>/dev/null && grep -q ' cpu-clock/call-graph=fp/: *$' "$tmp/term.txt"; then
  expect 0 "$cgcost" --format=text "$tmp/term.txt" \
    && grep -q '^Event: cpu-clock/call-graph=fp/, [0-9,.]* \(s\|ms\|µs\|ns\) in all$' "$tmp/out" || fail "cpu-clock/call-graph=fp/'s unit: $(head -3 "$tmp/out")"
fi
finish
