#!/bin/sh
# Callgrind-format files whose events count time in a unit they name:
# Xdebug 3's "Time_(10ns)" (and "Memory_(bytes)"), pyprof2calltree's
# event "ns", callgrind --collect-systime's sysTime and sysCpuTime, whose
# event: lines say "(elapsed us)", "(system cpu ns)".  The views show
# them as times (s, ms, µs, ns), as they show gmon.out's seconds, and
# cgcost --format=gprof in seconds as gprof does; cgcost --format=tsv
# keeps the file's numbers (its contract).  Oracle: the file's own
# numbers, converted by hand; and a callgrind run at test time whose
# totals: line, in ns, the views must show in ms.
. "${top_srcdir:-.}/tests/cli/common.sh"

# an Xdebug 3 profile: main calls work (8,000,000 x 10 ns = 80 ms) which
# calls leaf (2,500,000 x 10 ns = 25 ms)
cat >"$tmp/xd.out" <<'EOF'
version: 1
creator: xdebug 3.2.0 (PHP 8.2)
cmd: /srv/t.php
part: 1
positions: line

events: Time_(10ns) Memory_(bytes)

fl=(1) /srv/t.php
fn=(1) leaf
3 2500000 640

fl=(1)
fn=(2) work
5 5500000 0
cfl=(1)
cfn=(1)
calls=1 0 0
6 2500000 640

fl=(1)
fn=(3) {main}
1 100000 32
cfl=(1)
cfn=(2)
calls=1 0 0
9 8000000 640

summary: 8100000 672
EOF

expect 0 "$cgcost" --format=text "$tmp/xd.out" \
  && { grep -q '^Event: Time_(10ns), 81\.00 ms in all$' "$tmp/out" || fail "xdebug: total not 81.00 ms: $(sed -n 2p "$tmp/out")"; } \
  && { grep -Eq '^ +6?[0-9.]+ +55\.00 +[0-9.]+ +80\.00 +1  work$' "$tmp/out" \
         || fail "xdebug: work not 55.00 ms self, 80.00 ms total: $(grep ' work$' "$tmp/out" | head -1)"; }
expect 0 "$cgtree" -b "$tmp/xd.out" \
  && { grep -Eq 'incl ms +self ms' "$tmp/out" || fail "cgtree: xdebug's times not in ms: $(head -3 "$tmp/out")"; } \
  && { grep -Eq '^ +30\.86 +30\.86 +25\.00 +25\.00 +1 +.*leaf$' "$tmp/out" \
         || fail "cgtree: xdebug's leaf not 25.00 ms: $(grep 'leaf' "$tmp/out")"; }
expect 0 "$cgmerge" --format=text "$tmp/xd.out" \
  && { grep -q '^Event Memory_(bytes): 672 bytes in all$' "$tmp/out" \
         || fail "cgmerge: Memory_(bytes) not in bytes: $(grep Memory "$tmp/out" | head -1)"; }
# gprof's layout: seconds, and per-call times in ms
expect 0 "$cgcost" --format=gprof "$tmp/xd.out" \
  && { grep -Eq '^ +67\.90 +0\.06 +0\.06 +1 +55\.00 +80\.00  work$' "$tmp/out" \
         || fail "gprof layout: work not 0.06 s, 55.00 ms/call: $(grep -m1 ' work$' "$tmp/out")"; }
# the tsv keeps the file's numbers
expect 0 "$cgcost" --format=tsv "$tmp/xd.out" \
  && { grep -q '^work	1	5500000	8000000$' "$tmp/out" || fail "tsv: $(grep '^work' "$tmp/out")"; }
# two such files merge (one unit), and a diff of them is in ms
expect 0 "$cgcost" --format=text "$tmp/xd.out" "$tmp/xd.out" \
  && { grep -q '^Event: Time_(10ns), 162\.00 ms in all$' "$tmp/out" || fail "xdebug twice: $(sed -n 2p "$tmp/out")"; }
expect 0 "$cgcost" --base="$tmp/xd.out" --format=text "$tmp/xd.out" \
  && { grep -q 'in ms$' "$tmp/out" || fail "diff: not in ms: $(head -4 "$tmp/out")"; }

# Xdebug before 3.2 counted in µs, under another event name: the same
# run, so no change, and the header names both events
sed 's/Time_(10ns)/Time_(µs)/' "$tmp/xd.out" \
  | awk '/^[0-9]/ && NF == 3 { $2 = $2 / 100 } { print }' >"$tmp/xd-us.out"
expect 0 "$cgcost" --format=tsv "$tmp/xd-us.out" \
  && { grep -q '^work	1	55000	80000$' "$tmp/out" || fail "xdebug in µs: $(grep '^work' "$tmp/out")"; }
expect 0 "$cgcost" --base="$tmp/xd-us.out" --format=text "$tmp/xd.out" \
  && { grep -q '^Total: base 81\.00 ms, new 81\.00 ms, change +0\.00 ms' "$tmp/out" \
         || fail "Time_(µs) against Time_(10ns): $(sed -n 3,5p "$tmp/out")"; }
# the header names both events and the unit the numbers are shown in
# (ms, as the totals' 81.00 ms), where it said "both in 10ns"
said="the base's Time_(µs) against the new profile's Time_(10ns), both in ms"
expect 0 "$cgcost" --base="$tmp/xd-us.out" --format=text "$tmp/xd.out" \
  && { grep -qxF "Compared: $said." "$tmp/out" || fail "diff's header: $(grep Compared "$tmp/out")"; }
expect 0 "$cgcost" --base="$tmp/xd-us.out" --arcs --format=text "$tmp/xd.out" \
  && { grep -qxF "Compared: $said." "$tmp/out" || fail "arcs' diff header: $(grep Compared "$tmp/out")"; }
said="the base's Time_(10ns) against the new profile's Time_(µs), both in ms"
expect 0 "$cgtree" --base="$tmp/xd.out" "$tmp/xd-us.out" \
  && { grep -qxF "Compared: $said." "$tmp/out" || fail "cgtree's header: $(grep Compared "$tmp/out")"; }
expect 0 "$cgtree" --base="$tmp/xd.out" --format=dot "$tmp/xd-us.out" \
  && { grep -qF "$said" "$tmp/out" || fail "cgtree dot's label: $(grep -o 'against[^;]*' "$tmp/out")"; }
expect 0 "$cgtree" --base="$tmp/xd.out" --format=html "$tmp/xd-us.out" \
  && { grep -qF "new profile&apos;s Time_(µs), both in ms" "$tmp/out" \
         || fail "cgtree html's note: $(grep -o 'against[^.]*' "$tmp/out")"; }
expect 0 "$cgtree" --base="$tmp/xd.out" -b "$tmp/xd-us.out" \
  && { grep -Eq '^ +[0-9.]+ +[0-9.]+ +80\.00 +\+0\.00 +55\.00 +1 +.*work$' "$tmp/out" \
         || fail "cgtree: Time_(10ns) against Time_(µs): $(grep work "$tmp/out")"; }

# Xdebug 2 named no unit: "events: Time" (2.6 on "Time Memory") in µs
# and bytes (its source: the seconds measured times 1000000), names not
# compressed, and its summary: line between {main}'s fn= and its costs.
# The same run as above: 81.00 ms in all, work 55.00 ms self, 80.00 ms
# total, where the views said "81000 Time in all"
cat >"$tmp/xd2.out" <<'EOF'
version: 1
creator: xdebug 2.9.8 (PHP 7.4.33)
cmd: /srv/t.php
part: 1
positions: line

events: Time Memory

fl=/srv/t.php
fn=leaf
3 25000 640

fl=/srv/t.php
fn=work
5 55000 0
cfl=/srv/t.php
cfn=leaf
calls=1 0 0
6 25000 640

fl=/srv/t.php
fn={main}

summary: 81000 672

1 1000 32
cfl=/srv/t.php
cfn=work
calls=1 0 0
9 80000 640

EOF
expect 0 "$cgcost" --format=text "$tmp/xd2.out" \
  && { grep -q '^Event: Time, 81\.00 ms in all$' "$tmp/out" || fail "xdebug 2: total not 81.00 ms: $(sed -n 2p "$tmp/out")"; } \
  && { grep -Eq '^ +6?[0-9.]+ +55\.00 +[0-9.]+ +80\.00 +1  work$' "$tmp/out" \
         || fail "xdebug 2: work not 55.00 ms self, 80.00 ms total: $(grep ' work$' "$tmp/out" | head -1)"; }
expect 0 "$cgmerge" --format=text "$tmp/xd2.out" \
  && { grep -q '^Event Memory: 672 bytes in all$' "$tmp/out" \
         || fail "xdebug 2: Memory not in bytes: $(grep Memory "$tmp/out" | head -1)"; }
expect 0 "$cgcost" --format=tsv "$tmp/xd2.out" \
  && { grep -q '^work	1	55000	80000$' "$tmp/out" || fail "xdebug 2: tsv: $(grep '^work' "$tmp/out")"; }
# the same numbers from another producer are no time
sed 's/^creator: .*/creator: tideways_xhprof/' "$tmp/xd2.out" >"$tmp/other.out"
expect 0 "$cgcost" --format=text "$tmp/other.out" \
  && { grep -q '^Event: Time, 81,000 Time in all$' "$tmp/out" || fail "not Xdebug: $(sed -n 2p "$tmp/out")"; }

# pyprof2calltree's event "ns"
printf '%s\n' 'events: ns' 'fl=(1) a.py' 'fn=(1) f' '0 1500000' >"$tmp/py.out"
expect 0 "$cgcost" --format=text "$tmp/py.out" \
  && { grep -q '^Event: ns, 1\.50 ms in all$' "$tmp/out" || fail "pyprof2calltree's ns: $(sed -n 2p "$tmp/out")"; }

# pprofile names its time event "microseconds" (events: hits
# microseconds usphit), as its source writes it, where the views said
# "315 microseconds in all"
printf '%s\n' '# callgrind format' 'version: 1' 'creator: pprofile' 'event: usphit :microseconds/hit' \
  'events: hits microseconds usphit' 'fl=/srv/app.py' 'fn=<module>:1' '1 1 15 15' 'cfl=/srv/lib.py' 'cfn=work:3' \
  'calls=2 3' '2 2 300 150' 'fl=/srv/lib.py' 'fn=work:3' '4 20 100 5' '5 20 200 10' >"$tmp/pprofile.out"
expect 0 "$cgcost" --format=text -e microseconds "$tmp/pprofile.out" \
  && { grep -q '^Event: microseconds, 315 µs in all$' "$tmp/out" || fail "pprofile's microseconds: $(sed -n 2p "$tmp/out")"; }

# callgrind --collect-systime=usec's description
printf '%s\n' '# callgrind format' 'version: 1' 'creator: callgrind-3.19.0' 'positions: line' \
  'event: sysTime : sysTime (elapsed us)' 'events: Ir sysCount sysTime' 'fl=(1) a.c' 'fn=(1) main' \
  '1 100 2 2500' 'totals: 100 2 2500' >"$tmp/sys.out"
expect 0 "$cgcost" --format=text -e sysTime "$tmp/sys.out" \
  && { grep -q '^Event: sysTime (sysTime (elapsed us)), 2\.50 ms in all$' "$tmp/out" \
         || fail "sysTime in us: $(sed -n 2p "$tmp/out")"; }
expect 0 "$cgcost" --format=text -e Ir "$tmp/sys.out" \
  && { grep -q '^Event: Ir, 100 Ir in all$' "$tmp/out" || fail "Ir: $(sed -n 2p "$tmp/out")"; }
# a time and a count are not compared
expect 1 "$cgcost" --base="$tmp/py.out" -e Ir --format=text "$tmp/sys.out" \
  && expect_message "profiles in different units cannot be compared"

# perf's cpu-clock counts nanoseconds: cgtree --focus says the share of
# the whole profile in the unit of the tree's header (1.00 ms), not in
# ns (four samples of 250 µs, three of them under work)
{
  for i in 1 2 3; do
    printf 'prog 100 1.%d: 250000 cpu-clock: \n\t            1010 work+0x10 (/bin/prog)\n\t            2020 main+0x20 (/bin/prog)\n\n' "$i"
  done
  printf 'prog 100 1.4: 250000 cpu-clock: \n\t            2030 main+0x30 (/bin/prog)\n\n'
} >"$tmp/clock.perf"
expect 0 "$cgtree" --focus=work "$tmp/clock.perf" \
  && { grep -q '^Display tree (Kaes): event cpu-clock, 750\.00 µs in all\.$' "$tmp/out" \
         || fail "cgtree --focus: header: $(head -1 "$tmp/out")"; } \
  && { grep -q "^Focus: 1 function matching 'work' and its descendants, .*: 75\.00% of the profile's 1\.00 ms;" "$tmp/out" \
         || fail "cgtree --focus: the profile's total not in ms: $(sed -n 2p "$tmp/out")"; }

# at test time: callgrind --collect-systime=nsec; its summary: line
# (callgrind_annotate's PROGRAM TOTALS, which counts the exit system call
# that no cost line holds) against the views' total of sysCpuTime, within
# half the last digit shown
if command -v valgrind >/dev/null 2>&1 \
   && valgrind --tool=callgrind --collect-systime=nsec --callgrind-out-file="$tmp/cg.nsec" \
        sh -c 'for i in 1 2 3 4 5 6 7 8; do : >"$1/f$i"; done' sh "$tmp" >/dev/null 2>&1 \
   && grep -q '^events:.* sysCpuTime' "$tmp/cg.nsec"; then
  truth=$(awk '/^events:/ { for (i = 2; i <= NF; i++) if ($i == "sysCpuTime") c = i }
              /^summary:/ { print $c }' "$tmp/cg.nsec")
  echo "callgrind's summary: $truth ns of sysCpuTime"
  expect 0 "$cgcost" --format=text -e sysCpuTime "$tmp/cg.nsec" \
    && { sed -n 2p "$tmp/out" | awk -v want="$truth" '{
           sub (/.*\), /, ""); n = $1; gsub (/,/, "", n)
           f = $2 == "s" ? 1e9 : $2 == "ms" ? 1e6 : $2 == "\302\265s" ? 1e3 : $2 == "ns" ? 1 : 0
           d = n * f - want; exit !(f > 1 && $3 == "in" && d * d <= (f / 200) ^ 2) }' \
           || fail "callgrind sysCpuTime: not its summary: $truth ns: $(sed -n 2p "$tmp/out")"; }
else
  echo "valgrind --collect-systime=nsec unavailable: that part skipped"
fi
finish
