#!/bin/sh
# perf script text, hand-written: every layout -F chooses, and bad input.
# data/perf/layouts.perf holds six samples in a full layout (two
# processes, two threads, two events, kernel frames, [unknown] frames, an
# inlined frame, recursion a;a, "main" in two DSOs); the totals below were
# computed by hand from its stacks (each sample charged once to every
# distinct function on its stack, Kaes's Min_E).  The other layouts are
# made from it here, by the rules of perf's builtin-script.c printf.
. "${top_srcdir:-.}/tests/cli/common.sh"

full="$data/perf/layouts.perf"
cat >"$tmp/want" <<'TSV'
function	calls	self	total
__libc_start_main	0	0	43
main [/bin/p]	0	0	26
my_prog	0	0	26
main [/bin/sh]	0	17	17
sh	0	0	17
a	0	0	15
c	0	0	11
inl	0	11	11
b	0	3	8
[libz.so.1]	0	7	7
[unknown]	0	0	7
do_syscall_64	0	5	5
entry_SYSCALL_64	0	0	5
write	0	0	5
TSV

# totals FILE [OPTION...] — cgcost's tsv of FILE (first event) in $tmp/got
totals () {
  f=$1
  shift
  "$cgcost" --format=tsv "$@" "$f" >"$tmp/got" 2>"$tmp/err" || fail "cgcost $* $f: $(cat "$tmp/err")"
}

totals "$full"
cmp -s "$tmp/want" "$tmp/got" || fail "full layout: $(diff "$tmp/want" "$tmp/got")"

# perf's messages on its standard error, which "perf script >out 2>&1"
# puts in the text (as older perf printed them: a DSO not found, the
# kernel's addresses hidden by kptr_restrict), before the samples and
# between two of them: read as without them, where the file was 'unknown
# input format', and with --input-format=perf-script refused at line 2
{
  printf '%s\n' '[kernel.kallsyms] with build id 5a20f6299bdb955a2f07711bb7f65cd706fe7469 not found, continuing without symbols' \
    'Failed to open /tmp/perf-14168.map, continuing without symbols' 'Warning:' \
    'Kernel address maps (/proc/{kallsyms,modules}) were restricted,' \
    "check /proc/sys/kernel/kptr_restrict before running 'perf record'." '' \
    'As no suitable kallsyms nor vmlinux was found, kernel samples' "can't be resolved." '' \
    "Samples in kernel modules can't be resolved as well." ''
  sed -n '1,6p' "$full"
  printf '%s\n' 'Failed to open /lib/libz.so.1, continuing without symbols'
  sed '1,6d' "$full"
} >"$tmp/messages.perf"
totals "$tmp/messages.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "perf's messages: $(diff "$tmp/want" "$tmp/got" | head -5)"

# the second event is its own event: one sample of 13 in b
"$cgcost" --format=tsv --event=instructions:u "$full" | awk -F '\t' '$4 != 0' >"$tmp/got"
printf 'function\tcalls\tself\ttotal\n__libc_start_main\t0\t0\t13\nb\t0\t13\t13\nmain [/bin/p]\t0\t0\t13\nmy_prog\t0\t0\t13\n' \
  | cmp -s - "$tmp/got" || fail "second event: $(cat "$tmp/got")"
# folded stacks of one event leave out the stacks only the other sampled:
# instructions:u's one sample, and cycles:u's five stacks without main;b
"$cgcost" --format=folded --event=instructions:u "$full" >"$tmp/got"
[ "$(cat "$tmp/got")" = 'my_prog;__libc_start_main;main [/bin/p];b 13' ] || fail "folded, second event: $(cat "$tmp/got")"
"$cgcost" --format=folded "$full" >"$tmp/got"
[ "$(wc -l <"$tmp/got")" -eq 5 ] && ! grep -q ' 0$' "$tmp/got" || fail "folded, first event: $(cat "$tmp/got")"
expect 0 "$cgmerge" --format=text "$full"
grep -q '^Event cycles:u: 43 events in all' "$tmp/out" && grep -q '^Event instructions:u: 13 events in all' "$tmp/out" \
  || fail "events: $(head -5 "$tmp/out")"

# perf's default layout (comm tid time: period event: with symoff) and
# -F comm,pid,tid,period,event,ip,sym,dso (what cgmerge asks of perf)
sed -E 's/^( *[^ ].*) +([0-9]+)\/([0-9]+) +\[[0-9]+\] +([0-9.]+:)/\1 \3 \4/' "$full" >"$tmp/default.perf"
grep -E -q '^my prog +101 1000.000001: ' "$tmp/default.perf" || fail "test set-up: default layout: $(head -1 "$tmp/default.perf")"
totals "$tmp/default.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "default layout: $(diff "$tmp/want" "$tmp/got")"
# the default layout of a command named as perf's misc letters ("p"): the
# name is the process's, not a misc field before a time taken for the
# event (the same totals, the root renamed)
sed -E 's/^my prog /p /' "$tmp/default.perf" >"$tmp/letters.perf"
grep -q '^p   101 1000.000001: ' "$tmp/letters.perf" || fail "test set-up: a command named p"
totals "$tmp/letters.perf"
sed -E 's/^my_prog	/p	/' "$tmp/want" >"$tmp/want.letters"
cmp -s "$tmp/want.letters" "$tmp/got" || fail "a command named p: $(diff "$tmp/want.letters" "$tmp/got")"
sed -E 's/ +\[[0-9]+\] +[0-9.]+:/ /; s/\+0x[0-9a-f]+ \(/ (/' "$full" >"$tmp/fields.perf"
totals "$tmp/fields.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "comm,pid,tid,period,event,ip,sym,dso: $(diff "$tmp/want" "$tmp/got")"

# misc and tod (-F +misc,+tod, after the cpu)
sed -E 's/(\[[0-9]+\]) /\1 U     2026-11-26 22:00:00.000001 /' "$full" >"$tmp/tod.perf"
grep -q '^my prog   100/101   \[001\] U     2026-11-26 22:00:00.000001  1000.000001: ' "$tmp/tod.perf" || fail "test set-up: tod"
totals "$tmp/tod.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "misc and tod: $(diff "$tmp/want" "$tmp/got")"

# srcline: a source line after each frame, "(inlined)" after it
awk '/^\t/ { inl = sub(/ \(inlined\)$/, ""); print; print "  p.c:" NR (inl ? " (inlined)" : ""); next } { print }' \
  "$full" >"$tmp/srcline.perf"
totals "$tmp/srcline.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "srcline: $(diff "$tmp/want" "$tmp/got")"

# --header's comment lines, and --show-task-events' records between samples
{ printf '# ========\n# captured on    : Thu Nov 26 22:00:00 2026\n# ========\n#\n'
  printf 'my prog   100/101   [001]  999.000000: PERF_RECORD_COMM: my prog:100/101\n'
  printf '     sh   200/200   [001]  999.000000: PERF_RECORD_MMAP2 200/200: [0x1000(0x1000) @ 0]: r-xp /bin/sh\n'
  cat "$full"; } >"$tmp/header.perf"
totals "$tmp/header.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "--header and task events: $(diff "$tmp/want" "$tmp/got")"
# --show-mmap-events: a record per mapping of every process before its
# first sample, more than the detection window's 4 KiB
{ i=0
  while [ $i -lt 60 ]; do
    printf '     sh   200/200   [001]  999.000000: PERF_RECORD_MMAP2 200/200: [0x7f%010x(0x1000) @ 0x%x fe:00 1234 0]: r-xp /usr/lib/x86_64-linux-gnu/libfoo.so.%d\n' $i $i $i
    i=$((i + 1))
  done
  cat "$full"; } >"$tmp/mmap.perf"
[ "$(head -n 60 "$tmp/mmap.perf" | wc -c)" -gt 4096 ] || fail "test set-up: the records fit the window"
totals "$tmp/mmap.perf"
cmp -s "$tmp/want" "$tmp/got" || fail "--show-mmap-events: $(diff "$tmp/want" "$tmp/got" | head -3)"

# no period: 1 per sample (5 samples of cycles:u, 4 of my prog's)
sed -E 's/: +[0-9]+ +(cycles|instructions)/: \1/' "$full" >"$tmp/noperiod.perf"
totals "$tmp/noperiod.perf"
[ "$(total_of "$tmp/got" __libc_start_main)" = 5 ] && [ "$(total_of "$tmp/got" my_prog)" = 4 ] \
  && [ "$(total_of "$tmp/got" a)" = 3 ] && [ "$(sed -n 1p "$tmp/got")" = "$(sed -n 1p "$tmp/want")" ] \
  || fail "no period: $(cat "$tmp/got")"
"$cgmerge" --format=text "$tmp/noperiod.perf" | grep -q '^Event cycles:u: 5 samples in all' || fail "no period: unit"

# no comm, pid or tid: no root frames; no event: one event, "period"
sed -E 's/^ *[a-z][a-z ]*[a-z] +[0-9]+\/[0-9]+ +//' "$full" >"$tmp/nocomm.perf"
totals "$tmp/nocomm.perf"
grep -v -E '^(my_prog|sh)	' "$tmp/want" | cmp -s - "$tmp/got" || fail "no comm: $(diff "$tmp/want" "$tmp/got")"
sed -E 's/ +(cycles|instructions):u: $//' "$full" >"$tmp/noevent.perf"
"$cgmerge" --format=text "$tmp/noevent.perf" | grep -q '^Event period: 56 events in all' || fail "no event name"

# a layout without header fields (-F ip,sym,dso): an empty line per header
sed -E 's/^[^\t].*$//' "$full" >"$tmp/headerless.perf"
[ "$(head -c 1 "$tmp/headerless.perf" | od -An -c | tr -d ' ')" = '\n' ] || fail "test set-up: headerless"
totals "$tmp/headerless.perf"
[ "$(total_of "$tmp/got" __libc_start_main)" = 6 ] && [ "$(total_of "$tmp/got" b)" = 3 ] || fail "headerless: $(cat "$tmp/got")"

# no dso: kernel frames told by their addresses
sed -E 's/ \([^()]*\)$//' "$full" >"$tmp/nodso.perf"
totals "$tmp/nodso.perf" --kernel=drop
[ "$(total_of "$tmp/got" write)" = 5 ] && [ -z "$(total_of "$tmp/got" do_syscall_64)" ] || fail "no dso, --kernel=drop: $(cat "$tmp/got")"

# samples without call chains: one line each, the leaf only
awk '/^[^\t]/ && NF { h = $0; sub(/ +$/, "", h); next } /^\t/ && h != "" { sub(/^\t/, ""); print h " " $0; h = "" }' \
  "$full" >"$tmp/flat.perf"
grep -q '^my prog .*cycles:u:             1234 b+0x4 (/bin/p)$' "$tmp/flat.perf" || fail "test set-up: flat: $(head -1 "$tmp/flat.perf")"
totals "$tmp/flat.perf"
[ "$(total_of "$tmp/got" b)" = 3 ] && [ "$(total_of "$tmp/got" do_syscall_64)" = 5 ] && [ "$(total_of "$tmp/got" my_prog)" = 26 ] \
  && [ "$(total_of "$tmp/got" inl)" = 11 ] || fail "one-line samples: $(cat "$tmp/got")"

# an inlined frame has the object of the frame of its address that is not
# inlined (perf prints it after them); without one, no object
printf 'p 1/1 1.0: 5 cycles: \n\t            1304 inl (inlined)\n\t            1304 c+0x4 (/bin/p)\n\t            1100 main (/bin/p)\n\n' >"$tmp/inl.perf"
printf 'p 1/1 2.0: 7 cycles: \n\t            2000 inl (/lib/other.so)\n\t            1100 main (/bin/p)\n\n' >>"$tmp/inl.perf"
printf 'p 1/1 3.0: 11 cycles: \n\t            1310 inl2+0x4 (inlined)\n\t            1100 main (/bin/p)\n\n' >>"$tmp/inl.perf"
totals "$tmp/inl.perf"
[ "$(total_of "$tmp/got" "inl [/bin/p]")" = 5 ] && [ "$(total_of "$tmp/got" "inl [/lib/other.so]")" = 7 ] \
  && [ "$(total_of "$tmp/got" inl2)" = 11 ] || fail "inlined frames' objects: $(cat "$tmp/got")"

# --split and --kernel, written as stackcollapse-perf.pl writes them
"$cgcost" --format=folded --split=tid --kernel=annotate "$full" | sort >"$tmp/got"
grep -q '^my_prog-100/101;__libc_start_main;main \[/bin/p\];a;b;write;entry_SYSCALL_64_\[k\];do_syscall_64_\[k\] 5$' "$tmp/got" \
  && grep -q '^sh-200/200;__libc_start_main;main \[/bin/sh\] 17$' "$tmp/got" || fail "--split=tid --kernel=annotate: $(cat "$tmp/got")"
"$cgcost" --format=folded --split=pid "$full" | grep -q '^my_prog-100;__libc_start_main;main \[/bin/p\];c;inl 11$' \
  || fail "--split=pid"
totals "$full" --split=none --kernel=drop
[ "$(total_of "$tmp/got" __libc_start_main)" = 43 ] && [ "$(total_of "$tmp/got" write)" = 5 ] \
  && [ -z "$(total_of "$tmp/got" my_prog)" ] && grep -q '^write	0	5	5$' "$tmp/got" || fail "--split=none --kernel=drop: $(cat "$tmp/got")"
expect 2 "$cgmerge" --split=thread "$full"
expect_message "--split=thread: expected one of"
expect 2 "$cgtree" --kernel=no "$full"

# through the pipeline and from standard input
"$cgmerge" <"$full" | "$cgcycles" | "$cgcost" --format=tsv >"$tmp/got" || fail "pipeline failed"
cmp -s "$tmp/want" "$tmp/got" || fail "pipeline: $(diff "$tmp/want" "$tmp/got")"
"$cgmerge" "$full" >"$tmp/m.xml" && validate "$tmp/m.xml"
grep -q '<tree>' "$tmp/m.xml" || fail "no call tree in the XML"

# bad input: a clear message naming the line, exit 1
head -n 9 "$full" >"$tmp/cut.perf"
expect 1 "$cgmerge" "$tmp/cut.perf" && expect_message "cut.perf:9: the input ends inside the sample of line 7 (truncated?)"
head -c 300 "$full" >"$tmp/cut2.perf"
expect 1 "$cgmerge" "$tmp/cut2.perf" && expect_message "(truncated?)"
{ head -n 6 "$full"; printf '\n\t            1234 b+0x4 (/bin/p)\n\n'; } >"$tmp/orphan.perf"
expect 1 "$cgmerge" "$tmp/orphan.perf" && expect_message "orphan.perf:8: a frame line without a sample"
{ head -n 6 "$full"; printf 'x   1/1   [000]  1.000000:   1  cycles:u: \n\tzz not an address\n\n'; } >"$tmp/garbage.perf"
expect 1 "$cgmerge" "$tmp/garbage.perf" && expect_message "garbage.perf:8: not a frame line of perf script"
{ head -n 11 "$full"; sed -n '16,$p' "$full"; } >"$tmp/noblank.perf"
expect 1 "$cgmerge" "$tmp/noblank.perf" && expect_message "noblank.perf:12: no blank line after the call chain"
{ head -n 6 "$full"; printf 'just some text\nand more\n\n'; } >"$tmp/header.perf"
expect 1 "$cgmerge" "$tmp/header.perf" && expect_message "header.perf:7: not a sample header with the fields of the first sample's"
# --lenient skips the bad samples and says so once
expect 0 "$cgcost" --lenient --format=tsv "$tmp/garbage.perf" && expect_message "skipped 1 sample that is not perf script's (the first, line 8"
[ "$(total_of "$tmp/out" b)" = 3 ] || fail "--lenient: $(cat "$tmp/out")"
expect 0 "$cgmerge" --lenient "$tmp/cut.perf" && expect_message "the input ends inside a sample (truncated?): skipped it"

# detection is exact: a header and no frame line is not perf script
# (refused as headers without frames, -F -ip's text), nor a frame whose
# address is not in perf's 16 columns
printf 'rec 1 1.0: 1 cycles: \nrec 2 2.0: 1 cycles: \n' >"$tmp/nochain.txt"
expect 1 "$cgmerge" "$tmp/nochain.txt" && expect_message "nochain.txt:1: perf script's sample lines without frames"
printf 'rec 1 1.0: 1 cycles: \n\t1234 b (/bin/p)\n\n' >"$tmp/narrow.txt"
expect 1 "$cgmerge" "$tmp/narrow.txt" && expect_message "unknown input format"

# perf.data without perf: how to get it
printf 'PERFILE2\150\0\0\0\0\0\0\0' >"$tmp/fake.data"
expect 1 env PATH=/nonexistent "$cgmerge" "$tmp/fake.data" && expect_message "apt-get install linux-perf"

finish
