#!/bin/sh
# perf prints no object for an inlined frame ("work+0x29 (inlined)"):
# it takes the object of a frame of its address that is not inlined,
# whether perf printed that frame after the address's inline chain or
# before it.  perf 6.1 with --call-graph dwarf prints a C++ sample's own
# address as the ELF symbol (mangled) first, then the inline chain down
# to the function itself by its DWARF name:
#     11b9 _ZL4workj+0x29 (/tmp/prog)
#     11b9 work+0x29 (inlined)
# and a caller's address as the chain alone, no object anywhere.  So
# "work" was read as a function of its own in no object (and pugixml's
# XPath evaluator's inlined helpers twice, in the program and in none),
# where perf report --children counts each sample with either name for
# _ZL4workj.  Now the last inlined frame after a symbol at its address
# is that symbol's own function (where one symbol has that name and the
# name is never inlined into another function), and a frame whose
# address gives no object is the function of its name that the input's
# other inlined frames have in an object.  Oracles: the stacks written
# here, and for a C++ program built and recorded here, perf report
# --children and the samples of its perf script text with _ZL4workj or
# an inlined work (awk).  The real part is skipped (77) where perf or
# g++ is missing or perf cannot record.
. "${top_srcdir:-.}/tests/cli/common.sh"

# host before (a sample's own address: work is _ZL4workj's own name),
# host after (a caller's address), no host (the names' other frames
# have one)
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
grep -q '^work' "$tmp/out" && fail "work is a function apart from _ZL4workj: $(cat "$tmp/out")"
[ "$(total_of "$tmp/out" _ZL4workj)" = 750000 ] || fail "_ZL4workj: $(cat "$tmp/out")"
[ "$(grep -c '^mix' "$tmp/out")" = 1 ] && [ "$(total_of "$tmp/out" mix)" = 500000 ] || fail "mix: $(cat "$tmp/out")"

# the symbol again after the chain: the chain was inlined into it, its
# last frame (step_do) is no name of the symbol's
{
  printf 'prog 10/10     1 cpu-clock: \n'
  printf '\t%16s %s (%s)\n' 1b38d _ZN4pugi3setEv /p 1b38d step_fill inlined 1b38d step_do inlined \
    1b38d _ZN4pugi3setEv /p 1c0c7 main /p
  printf '\n'
} >"$tmp/again.perf"
expect 0 "$cgcost" --format=tsv "$tmp/again.perf" || fail "cgcost again"
[ "$(total_of "$tmp/out" step_do)" = 1 ] && [ "$(total_of "$tmp/out" _ZN4pugi3setEv)" = 1 ] \
  || fail "step_do between two of its symbol's frames: $(cat "$tmp/out")"

# each the other's own name: no symbol is merged into the other
{
  printf 'prog 10/10     1 cpu-clock: \n\t               1 a (/p)\n\t               1 b (inlined)\n\n'
  printf 'prog 10/10     1 cpu-clock: \n\t               2 b (/p)\n\t               2 a (inlined)\n\n'
} >"$tmp/circle.perf"
expect 0 "$cgcost" --format=tsv "$tmp/circle.perf" || fail "cgcost circle"
[ "$(awk -F '\t' '$1 == "a" || $1 == "b" { printf "%s=%s ", $1, $4 }' "$tmp/out")" = "a=2 b=2 " ] \
  || fail "a and b, each the other's own name: $(cat "$tmp/out")"

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
# the periods of the samples with _ZL4workj or an inlined work, and of
# those with an inlined work at the address of a symbol printed before it
awk '
  /cpu-clock:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/ && $(i + 1) ~ /cpu-clock/) period = $i; n = 0; next }
  NF >= 3 { ip[n] = $1; name[n] = $2; inl[n] = ($NF == "(inlined)"); n++; next }
  NF == 0 && n > 0 {
    w = h = 0
    for (i = 0; i < n; i++) {
      if (name[i] == "_ZL4workj" || (inl[i] && name[i] == "work")) w = 1
      if (inl[i] && name[i] == "work") for (j = 0; j < i; j++) if (!inl[j] && ip[j] == ip[i]) h = 1
    }
    all += w * period; hosted += h * period; n = 0
  }
  END { printf "%d %d\n", all, hosted }' "$tmp/inl.txt" >"$tmp/expected"
read -r all hosted <"$tmp/expected"
[ "${hosted:-0}" -gt 0 ] || skip "perf script printed no inlined frame of work after _ZL4workj at its address"
expect 0 "$cgcost" --format=tsv "$tmp/inl.data" || fail "cgcost inl.data"
grep -q '^work' "$tmp/out" && fail "work is a function apart from _ZL4workj: $(grep '^work' "$tmp/out")"
work_total=$(total_of "$tmp/out" _ZL4workj)
[ "$work_total" = "$all" ] || fail "_ZL4workj: ${work_total:-no row}, expected $all (the samples with it or an inlined work)"
perf report -i "$tmp/inl.data" --children --stdio -g none --sort sym --no-demangle 2>/dev/null >"$tmp/report"
theirs=$(awk '$3 == "[.]" && $4 == "_ZL4workj" && NF == 4 { sub(/%/, "", $1); print $1 }' "$tmp/report")
if [ -n "$theirs" ]; then
  samples=$(awk '/^# Event count/ { print $NF }' "$tmp/report")
  # perf report counts some of the samples of its perf script's stacks
  # with an inlined work less: 0 to 3 of some 420 on an idle machine (9
  # runs), up to 1.5 points where samples fall in interrupt handling
  # under load (make -j2 check; it failed 5 runs in 6 within a point);
  # never more: so a point below to three above.  Apart, the two names
  # read 71% and 99%
  awk -v o="$work_total" -v p="$theirs" -v t="$samples" \
    'BEGIN { exit !(t > 0 && o / t * 100 > p - 1 && o / t * 100 < p + 3) }' \
    || fail "_ZL4workj: $work_total ns of $samples, perf report --children $theirs%"
fi
echo "_ZL4workj: $work_total ns (perf script's samples with it or an inlined work: $all ns; perf report --children ${theirs:-?}%)"
finish
