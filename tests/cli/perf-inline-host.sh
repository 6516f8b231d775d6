#!/bin/sh
# An inlined frame's object is that of the frame perf printed at the same
# address that is not inlined, whether perf printed that frame after the
# address's inline chain or before it.  perf 6.1 with --call-graph dwarf
# prints a C++ sample's own address as the ELF symbol (mangled) first,
# then the inline chain ending in the function's own DWARF name:
#     11b9 _ZL4workj+0x29 (/tmp/prog)
#     11b9 work+0x29 (inlined)
# so "work" was read twice, once in the program and once in no object,
# and the views showed two functions where perf report shows one.
# Where no frame of the address is printed but inlined ones (a caller's
# address, whose whole inline chain perf printed, the outermost by its
# DWARF name), the frame takes the function of its name that the
# input's other inlined frames have in an object, where one object has
# one.  Oracles: the stacks written here, and for a C++ program built
# and recorded here, its perf script text (the periods of the samples
# with an inlined frame of work, awk) and perf report --children's
# "work (inlined)".
# The real part is skipped (77) where perf or g++ is missing or perf
# cannot record.
. "${top_srcdir:-.}/tests/cli/common.sh"

# host before (a sample's own address), host after (a caller's
# address), no host (the names' other frames have one)
{
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t            11b9 _ZL4workj+0x29 (/usr/bin/prog)\n\t            11b9 work+0x29 (inlined)\n'
  printf '\t            1086 main+0x26 (/usr/bin/prog)\n\n'
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t            2000 leaf+0x1 (/usr/bin/prog)\n\t            11c0 mix+0x30 (inlined)\n'
  printf '\t            11c0 work+0x30 (inlined)\n\t            11c0 _ZL4workj+0x30 (/usr/bin/prog)\n'
  printf '\t            1086 main+0x26 (/usr/bin/prog)\n\n'
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t            2000 leaf+0x1 (/usr/bin/prog)\n\t            1400 mix+0x10 (inlined)\n'
  printf '\t            1400 work+0x10 (inlined)\n\t            1086 main+0x26 (/usr/bin/prog)\n\n'
} >"$tmp/stacks.perf"
expect 0 "$cgcost" --format=tsv "$tmp/stacks.perf" || fail "cgcost"
work=$(awk -F '\t' '$1 ~ /^work( \[.*\])?$/ { n++; s = $1 "=" $4 } END { print n " " s }' "$tmp/out")
[ "$work" = "1 work=750000" ] || fail "work: one function with both samples expected, got: $(cat "$tmp/out")"
[ "$(total_of "$tmp/out" mix)" = 500000 ] || fail "mix: $(cat "$tmp/out")"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
command -v g++ >/dev/null 2>&1 || skip "g++ is not installed"
cat >"$tmp/inl.cpp" <<'EOF'
#include <cstdio>
#include <cstdlib>
static inline __attribute__((always_inline)) unsigned mix (unsigned x)
{
  for (int i = 0; i < 64; i++)
    x = x * 2654435761u ^ (x >> 13);
  return x;
}
__attribute__((noinline)) static unsigned work (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s += mix (i);
  return s;
}
int main (int argc, char **argv)
{
  std::printf ("%u\n", work (argc > 1 ? (unsigned) std::atoi (argv[1]) : 2000000));
  return 0;
}
EOF
g++ -O2 -g "$tmp/inl.cpp" -o "$tmp/inl" || fail "g++"
perf record -q --call-graph dwarf -e cpu-clock -o "$tmp/inl.data" "$tmp/inl" >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/inl.data" >/dev/null 2>&1 \
  || skip "perf record --call-graph dwarf cannot record here: $(head -c 300 "$tmp/err")"
perf script --no-demangle -F comm,tid,period,event,ip,sym,dso -i "$tmp/inl.data" >"$tmp/inl.txt" 2>/dev/null || fail "perf script"
# the periods of the samples with an inlined frame of work, and of
# those where one shares its address with a frame that is not inlined
awk '
  /cpu-clock:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/ && $(i + 1) ~ /cpu-clock/) period = $i; n = 0; next }
  NF >= 3 { ip[n] = $1; name[n] = $2; inl[n] = ($NF == "(inlined)"); n++; next }
  NF == 0 && n > 0 {
    w = h = 0
    for (i = 0; i < n; i++) if (inl[i] && name[i] == "work") {
      w = 1
      for (j = 0; j < n; j++) if (!inl[j] && ip[j] == ip[i]) h = 1
    }
    all += w * period; hosted += h * period; n = 0
  }
  END { printf "%d %d\n", all, hosted }' "$tmp/inl.txt" >"$tmp/expected"
read -r all hosted <"$tmp/expected"
[ "${hosted:-0}" -gt 0 ] || skip "perf script printed no inlined frame of work at an address it also printed as a symbol"
[ "$all" -gt "$hosted" ] || echo "note: every inlined frame of work had a host"
expect 0 "$cgcost" --format=tsv "$tmp/inl.data" || fail "cgcost inl.data"
grep '^work[	 ]' "$tmp/out" >"$tmp/work"
work_total=$(cut -f 4 "$tmp/work")
[ "$(wc -l <"$tmp/work")" -eq 1 ] && [ "$work_total" = "$all" ] \
  || fail "work: one function of $all ns expected (the samples with an inlined work), got: $(cat "$tmp/work")"
expect 0 "$cgmerge" "$tmp/inl.data" || fail "cgmerge inl.data"
object=$(awk -v p="$tmp/inl" 'index($0, "name=\"" p "\"/>") { sub(/.*id="/, ""); sub(/".*/, ""); print }' "$tmp/out")
awk -F '\t' -v o="${object:-none}" '$1 == "work" && $2 == o { found = 1 } END { exit !found }' "$tmp/out" \
  || fail "work is not a function of $tmp/inl (object ${object:-none}): $(grep '^work' "$tmp/out")"
perf report -i "$tmp/inl.data" --children --stdio -g none --sort sym --no-demangle 2>/dev/null >"$tmp/report"
theirs=$(awk '$3 == "[.]" && $4 == "work" && $5 == "(inlined)" { sub(/%/, "", $1); print $1 }' "$tmp/report")
if [ -n "$theirs" ]; then
  samples=$(awk '/^# Event count/ { print $NF }' "$tmp/report")
  awk -v o="$work_total" -v p="$theirs" -v t="$samples" 'BEGIN { exit !(t > 0 && o / t * 100 > p - 0.006 && o / t * 100 < p + 0.006) }' \
    || fail "work: $work_total ns of $samples, perf report --children $theirs%"
fi
echo "work: $work_total ns (perf script's samples with it: $all ns, $hosted ns of them with a host; perf report --children ${theirs:-?}%)"
finish
