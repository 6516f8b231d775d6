#!/bin/sh
# perf.data samples whose call chain perf script prints empty.  perf drops
# a whole chain where it meets an entry it does not know (cc1's
# frame-pointer chains end in ffffffffffffffff now and then: 268 of 34,045
# samples of a make -j2 of Lua), yet perf report charges such a sample to
# the symbol of its own address, which perf script -G prints.  cgmerge
# reads those samples' addresses with a second perf script, -G.
# 1. A stand-in perf prints known text for both passes: the sample with
#    the empty chain gets its leaf, and when the second pass prints other
#    samples, the first pass's reading stands, with a warning.
# 2. Where perf records: gcc compiling a real C file (this project's), and
#    every named symbol's self and total against perf report --children
#    (--no-demangle: cgmerge keeps the linker's names of perf.data).
. "${top_srcdir:-.}/tests/cli/common.sh"

mkdir "$tmp/fakeperf"
cat >"$tmp/fakeperf/perf" <<EOF
#!/bin/sh
case " \$* " in
*" -G "*) cat "$tmp/leaves.txt" ;;
*) cat "$tmp/chains.txt" ;;
esac
EOF
chmod +x "$tmp/fakeperf/perf"
cat >"$tmp/chains.txt" <<'EOF'
cc1 7/7     250000 cpu-clock: 
	            1200 work (/usr/bin/cc1)
	            1300 main (/usr/bin/cc1)

cc1 7/7     500000 cpu-clock: 

cc1 7/7     250000 cpu-clock: 
	            1300 main (/usr/bin/cc1)

EOF
cat >"$tmp/leaves.txt" <<'EOF'
             cc1 7/7     250000 cpu-clock:            401200 work (/usr/bin/cc1)
             cc1 7/7     500000 cpu-clock:            401400 hot (/usr/bin/cc1)
             cc1 7/7     250000 cpu-clock:            401300 main (/usr/bin/cc1)
EOF
# a perf.data header: the magic number and the header's size
printf 'PERFILE2\150\0\0\0\0\0\0\0' >"$tmp/fake.data"
PATH="$tmp/fakeperf:$PATH" expect 0 "$cgcost" --format=tsv "$tmp/fake.data"
printf 'function\tcalls\tself\ttotal\ncc1\t0\t0\t1000000\nhot\t0\t500000\t500000\nmain\t0\t250000\t500000\nwork\t0\t250000\t250000\n' \
  | diff - "$tmp/out" >"$tmp/diff" || fail "the empty chain's sample: $(cat "$tmp/diff")"
grep -q 'cgcost: warning' "$tmp/err" && fail "a warning: $(cat "$tmp/err")"

# a second pass that prints other samples: the first pass's reading
sed 2d "$tmp/leaves.txt" >"$tmp/fewer" && mv "$tmp/fewer" "$tmp/leaves.txt"
PATH="$tmp/fakeperf:$PATH" expect 0 "$cgcost" --format=tsv "$tmp/fake.data"
printf 'function\tcalls\tself\ttotal\ncc1\t0\t500000\t1000000\nmain\t0\t250000\t500000\nwork\t0\t250000\t250000\n' \
  | diff - "$tmp/out" >"$tmp/diff" || fail "a second pass of other samples: $(cat "$tmp/diff")"
expect_message "1 sample perf printed without a call chain charged to its root frame"

# gcc, recorded
command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
perf record -q -g -e cpu-clock -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
command -v gcc >/dev/null 2>&1 || skip "no gcc"
perf record -q -g -e cpu-clock -o "$tmp/gcc.data" gcc -O2 -c -o "$tmp/x.o" -I"$top_srcdir/src/lib/base" \
  -I"$top_srcdir/src/lib/model" -I"$top_builddir" $(pkg-config --cflags glib-2.0 2>/dev/null) \
  "$top_srcdir/src/lib/analysis/cg-display-tree.c" >"$tmp/err" 2>&1 || skip "gcc cannot compile here: $(head -c 300 "$tmp/err")"
empty=$(perf script -i "$tmp/gcc.data" -F comm,tid,period,event,ip,sym,dso 2>/dev/null \
  | awk 'BEGIN { RS = "" } { n = split($0, l, "\n"); if (n < 2) e++ } END { print e + 0 }')
"$cgcost" --format=tsv "$tmp/gcc.data" >"$tmp/tsv" || fail "cgcost gcc.data"
perf report --no-demangle -i "$tmp/gcc.data" --children --stdio -g none --sort sym 2>/dev/null \
  | awk '$1 ~ /%$/ && $3 ~ /^\[.\]$/ { c = $1; s = $2; sub(/%/, "", c); sub(/%/, "", s); $1 = $2 = $3 = ""
                                       sub(/^ +/, ""); sub(/ +$/, ""); print $0 "\t" c "\t" s }' >"$tmp/report"
# a caller's frame that perf printed at a symbol's first byte ("+0x0":
# the return address after a call that does not return, past the
# caller's end) is the function holding the byte before it in cgtools
# (formats/perf.md), perf report's the next one: the samples with such a
# frame, as a share of all, are what any total may differ by, and a
# symbol perf report lists only for such frames is none of cgtools' (it
# failed 2 integrations of some 15: a cc1 function at 0.08 %, none here)
moved=$(perf script -i "$tmp/gcc.data" -F ip,sym,symoff,dso 2>/dev/null | awk 'BEGIN { RS = "" }
  { n = split($0, l, "\n"); for (i = 2; i <= n; i++) if (l[i] ~ /\+0x0 \(/) { h++; break }; t++ }
  END { printf "%.4f\n", t ? 100 * h / t : 0 }')
# a name perf report lists more than once (one per DSO, or inlined and
# not) is compared as a sum of selfs, and a total between the largest
# and the sum of perf's; named symbols only (perf shows [unknown] ones by
# address, cgtools by DSO, as stackcollapse-perf)
awk -F '\t' -v moved="$moved" '
  NR == FNR { if (FNR > 1) { n = $1; sub(/ \[[^]]*\]$/, "", n); all += $3; s[n] += $3; k[n]++
                             if ($4 > t[n]) t[n] = $4; ts[n] += $4 }; next }
  $1 !~ /^0x/ && $1 !~ /^0+$/ { n = $1; sub(/ \(inlined\)$/, "", n); pk[n]++; if ($2 > pc[n]) pc[n] = $2; pcs[n] += $2; ps[n] += $3 }
  END {
    for (n in pk) {
      # a symbol perf saw only at such a "+0x0" frame has none of its own
      # here: within the same share, and without a self cost
      if (!(n in k) && pc[n] <= moved + 0.0051 && ps[n] <= 0.0051 * pk[n]) { moved_only++; continue }
      if (!(n in k)) { bad++; print "  " n ": none of ours, perf " pc[n] "%"; continue }
      compared++
      lo = 100 * t[n] / all; hi = 100 * ts[n] / all
      if (hi < pc[n] - 0.0051 - moved || lo > pcs[n] + 0.0051 * pk[n] + moved) { bad++; printf "  %s: total %.2f, perf %s\n", n, lo, pc[n] }
      e = 100 * s[n] / all - ps[n]; if (e > 0.0051 * pk[n] || e < -0.0051 * pk[n]) { bad++; printf "  %s: self %.2f, perf %.2f\n", n, 100 * s[n] / all, ps[n] } }
    printf "%d symbols compared, %d differ, %d at +0x0 frames only\n", compared, bad, moved_only + 0
    exit (bad > 0 || compared < 20) }' \
  "$tmp/tsv" "$tmp/report" >"$tmp/cmp" || fail "gcc against perf report: $(head -20 "$tmp/cmp")"
echo "gcc (samples with an empty chain: $empty; with a caller at +0x0: $moved %) against perf report --children: $(tail -n 1 "$tmp/cmp")"

finish
