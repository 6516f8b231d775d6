#!/bin/sh
# perf script that dies of a signal of its own (perf 6.1 died of SIGBUS
# on GNU make's perf.data cut at 200,000 of its 1.7 MB) is named as the
# reason, with the signal, where cgmerge said "no sample of perf script
# in the input", as if perf had printed none.
# Oracle: a stand-in for perf, first in PATH, that prints half a sample
# or nothing and then kills itself with SIGBUS; and, where perf is
# installed, a real recording cut short, where perf script itself dies
# of a signal.
. "${top_srcdir:-.}/tests/cli/common.sh"
mkdir "$tmp/fake"
cat >"$tmp/fake/perf" <<'SH'
#!/bin/sh
# a perf that crashes: what it printed, then SIGBUS
[ -n "${HALF:-}" ] && printf 'prog 10/10     250000 cpu-clock: \n\t            1000 main+0x0 (/tmp/prog)\n'
echo "perf: about to crash" >&2
kill -s BUS $$
SH
chmod +x "$tmp/fake/perf"
# a perf.data's first bytes: the magic and a header size of 104
printf 'PERFILE2\150\0\0\0\0\0\0\0' >"$tmp/prog.data"
head -c 200 /dev/zero >>"$tmp/prog.data"
for half in "" 1; do
  expect 1 env PATH="$tmp/fake:$PATH" HALF="$half" "$cgcost" --format=tsv "$tmp/prog.data" || fail "cgcost (half: $half)"
  expect_message "prog.data: perf script died of signal"
  expect_message "(Bus error)"
  expect_message "perf: about to crash"
  grep -q "no sample of perf script" "$tmp/err" && fail "perf's crash read as no samples: $(cat "$tmp/err")"
done

# a real recording cut short, where perf itself dies of a signal on it
command -v perf >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 || finish
cat >"$tmp/spin.c" <<'C'
volatile double sink;
int main (void) { for (long i = 0; i < 100000000; i++) sink += (double) i / (i + 3); return 0; }
C
cc -O1 -fno-omit-frame-pointer -o "$tmp/spin" "$tmp/spin.c" || finish
perf record -q -g -e cpu-clock -o "$tmp/spin.data" "$tmp/spin" >/dev/null 2>&1 || finish
size=$(wc -c <"$tmp/spin.data")
head -c $((size / 3)) "$tmp/spin.data" >"$tmp/cut.data"
perf script -i "$tmp/cut.data" >/dev/null 2>&1
status=$?
if [ "$status" -gt 128 ] && [ "$status" -le 192 ]; then
  expect 1 "$cgcost" --format=tsv "$tmp/cut.data" || fail "cgcost cut.data"
  expect_message "cut.data: perf script died of signal"
else
  echo "note: perf script exits $status on a cut perf.data here, not by a signal"
fi
finish
