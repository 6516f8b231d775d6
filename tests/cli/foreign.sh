#!/bin/sh
# Real profiles made by other tools on other machines, kept as test data
# by other projects (tests/data/foreign/README says where each comes
# from).  Oracle: the numbers the producing tool printed in the file, or
# the result the other project's own test expects from it.
. "${top_srcdir:-.}/tests/cli/common.sh"
foreign="$top_srcdir/tests/data/foreign"

# row TSV NAME — NAME's "calls<TAB>self<TAB>total" in cgcost's tsv
row () {
  awk -F '\t' -v n="$2" '$1 == n { print $2 "\t" $3 "\t" $4 }' "$1"
}

# has TSV NAME "CALLS<TAB>SELF<TAB>TOTAL"
has () {
  got=$(row "$1" "$2")
  [ "$got" = "$3" ] || fail "$1: $2 is '$got', expected '$3'"
}

# near TSV NAME CALLS SELF TOTAL [TOLERANCE] — within 1e-6 s, or the
# tolerance given (reports print hundredths)
near () {
  row "$1" "$2" | awk -F '\t' -v c="$3" -v s="$4" -v t="$5" -v n="$2" -v e="${6:-1e-6}" '
    { seen = 1; ds = $2 - s; dt = $3 - t; if (ds < 0) ds = -ds; if (dt < 0) dt = -dt
      if ($1 != c || ds > e + 0 || dt > e + 0) { print n ": " $0 ", expected " c " " s " " t; exit 1 } }
    END { if (!seen) { print n ": no row"; exit 1 } }' >"$tmp/why" || fail "$1: $(cat "$tmp/why")"
}

# ---- macOS's gprof (4.4 BSD's layout) ----
t="$tmp/darwin.tsv"
if expect 0 "$cgmerge" "$foreign/darwin-gprof.txt"; then
  "$cgcost" --format=tsv "$tmp/out" >"$t" || fail "darwin: cgcost"
  # the entries' self and self + descendents, the flat profile's calls
  has "$t" "__ZN3c3d4data6PointsC4Et" "1	0	0.03"
  has "$t" "c3d::data::Point::~Point()" "109	0.02	0.02"
  has "$t" "__ZN3c3d4data5PointD4Ev" "109	0.01	0.01"
  has "$t" "std::basic_streambuf<char, std::char_traits<char> >::xsgetn(char*, int)" "0	0.09	0.09"
  # index cells that are the symbols' names stand for the graph's
  has "$t" "c3d::data::Point::Point()" "1	0	0"
  has "$t" "c3d::Data::Data(unsigned short, unsigned short, unsigned short, unsigned short)" "1	0	0"
  has "$t" "c3d::Header::~Header()" "1	0	0"
  # functions the graph leaves out: their flat rows, "name (index)"
  has "$t" "mcount" "0	0.31	0.31"
  has "$t" "_moncount" "0	0.38	0.38"
  grep -q '(41)\|(5191)' "$t" && fail "darwin: an index in a function's name"
fi

# ---- AIX's gprof (the BSD layout, its own granularity line and comments) ----
t="$tmp/aix.tsv"
if expect 0 "$cgmerge" "$foreign/aix-gprof.txt"; then
  "$cgcost" --format=tsv "$tmp/out" >"$t" || fail "aix: cgcost"
  # each entry's self, self + descendents and calls, as the report prints them
  near "$t" .__start 0 0 1.16
  near "$t" .main 1 0.44 1.16
  near "$t" .fft 1024 0.59 0.72
  near "$t" .bit_reverse 1024 0.13 0.13
  near "$t" .__mcount 0 0.01 0.01
  near "$t" .cos 256 0 0
fi

# ---- reports whose form feeds were lost (copied through a web page) ----
t="$tmp/val3.tsv"
if expect 0 "$cgmerge" "$foreign/val3-no-formfeeds.txt"; then
  "$cgcost" --format=tsv "$tmp/out" >"$t" || fail "val3: cgcost"
  # the entries' self and self + children (a cycle: cycfn2's total is main's call's)
  near "$t" cycfn2 2 3.50 5.21 0.005
  near "$t" cycfn1 2 1.71 1.71 0.005
  near "$t" main 0 0 5.21 0.005
fi
for f in darwin-gprof aix-gprof; do
  tr -d '\f' <"$foreign/$f.txt" >"$tmp/$f.noff"
  "$cgmerge" "$foreign/$f.txt" | "$cgcost" --format=tsv >"$tmp/$f.ff.tsv" || fail "$f: with form feeds"
  "$cgmerge" "$tmp/$f.noff" | "$cgcost" --format=tsv >"$tmp/$f.noff.tsv" || fail "$f: without form feeds"
  cmp -s "$tmp/$f.ff.tsv" "$tmp/$f.noff.tsv" || fail "$f: read differently without its form feeds"
done

# ---- near misses: gprof's text that is no report cgtools reads ----
expect 1 "$cgmerge" "$foreign/headless-graph.txt" \
  && expect_message "headless-graph.txt:1: a gprof call graph without the lines gprof prints above it"
expect 1 "$cgmerge" "$foreign/cycles-flat.txt" \
  && expect_message "cycles-flat.txt:1: a gprof report whose times are processor cycles"

# ---- perf script whose TABs were expanded to blanks ----
v="$foreign/inferno-versioned-vmlinux.perf"
if expect 0 "$cgmerge" "$v"; then
  "$cgcost" --format=folded "$tmp/out" >"$tmp/v.folded" || fail "vmlinux: cgcost"
  k=swapper\;[vmlinux-5.4.14-cloudflare-2020.1.11]\;start_secondary\;cpu_startup_entry\;do_idle\;cpuidle_enter
  k=$k\;cpuidle_enter_state\;common_interrupt\;do_IRQ\;irq_exit\;__softirqentry_text_start\;net_rx_action
  k=$k\;mlx5e_napi_poll\;mlx5e_poll_rx_cq\;mlx5e_handle_rx_cqe\;mlx5e_skb_from_cqe_linear\;mlx5e_xdp_handle
  k=$k\;bpf_prog_2b956549c660136a_uni_l4lb
  [ "$(cat "$tmp/v.folded")" = "$k 20834821" ] || fail "vmlinux: $(head -c 300 "$tmp/v.folded")"
  # the same with perf's TAB back
  sed 's/^        \([ 0-9a-f]\{16\}\)/\t\1/' "$v" >"$tmp/tab.perf"
  grep -q "$(printf '^\t')" "$tmp/tab.perf" || fail "vmlinux: no TAB put back"
  "$cgmerge" "$tmp/tab.perf" | "$cgcost" --format=folded >"$tmp/tab.folded" || fail "vmlinux: with TABs"
  cmp -s "$tmp/v.folded" "$tmp/tab.folded" || fail "vmlinux: blanks and TABs read differently"
fi
# as inferno keeps it, without the empty line perf prints after a sample
sed '$d' "$v" >"$tmp/cut.perf"
expect 1 "$cgmerge" "$tmp/cut.perf" \
  && expect_message "cut.perf:18: the input ends inside the sample of line 1 (truncated?): perf script ends every sample with an empty line"

# ---- Go's pprof -callgrind: the unit in the event's name, "cpu(ms)" ----
t="$tmp/pprof.tsv"
if expect 0 "$cgcost" --format=tsv "$foreign/pprof-cpu.callgrind"; then
  mv "$tmp/out" "$t"
  # the totals of pprof's traces of the same profile, in ms
  has "$t" line3000 "0	0	1120"
  has "$t" line3001 "0	0	1110"
  has "$t" line1000 "0	1100	1100"
  has "$t" line3002 "0	10	1020"
  has "$t" line2000 "0	0	1010"
  has "$t" line2001 "0	10	1010"
fi
# shown in seconds, as pprof's "Total samples = 1.12s", where it said
# "1,120 cpu(ms) in all"
expect 0 "$cgcost" --format=text "$foreign/pprof-cpu.callgrind" \
  && { grep -q '^Event: cpu(ms), 1\.12 s in all$' "$tmp/out" || fail "pprof: $(sed -n 2p "$tmp/out")"; }

# ---- lsprofcalltree's layout (bzr --lsprof-file): fi= names the function's file ----
t="$tmp/bzr.tsv"
if expect 0 "$cgcost" --format=tsv "$foreign/bzr-lsprof.callgrind"; then
  mv "$tmp/out" "$t"
  # one function each, where each was two: its self cost under no file
  # and its calls under the file cfi= named ("<len> []", "<len> [~]")
  has "$t" "<built-in method decompress>" "57084	586773	586773"
  has "$t" "_ensure_content bzrlib.groupcompress:116" "0	29919	617038"
  has "$t" "<len>" "0	8193	8282"
  has "$t" "__len__ bzrlib.groupcompress:110" "47390	0	89"
  has "$t" "<zlib.decompressobj>" "47390	0	346"
  [ "$(wc -l <"$t")" -eq 6 ] || fail "bzr: $(cat "$t")"
fi

finish
