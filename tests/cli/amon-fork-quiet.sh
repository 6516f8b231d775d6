#!/bin/sh
# libamon in the children of fork(2) leaves the program's standard error
# alone.  With AMON_CLOCK=sample a child makes no timers, so its profile
# counts calls without times; it used to say so on standard error when it
# wrote its file, one line per child: dash 0.5.12 running a script with a
# hundred subshells and command substitutions printed a hundred such
# lines among the script's own messages.  The child's file says it now
# (amon.out's header flag, shown as a note by the views), and standard
# error holds only what the program wrote.  The oracle is the program's
# structure: five children, each calling child_work once, which calls
# spin once; the parent calls spin once.  The views of the six files
# merged name them on one line and print the children's note once, "and 4
# others alike" (a line per file and note before: 108 for dash's script),
# and two of them "and 1 other alike" (it said "1 others").
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup

cat >"$tmp/kids.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__ ((noinline)) void spin (long n) { for (long i = 0; i < n; i++) sink += (unsigned long) i * 7; }
__attribute__ ((noinline)) void child_work (long n) { spin (n); sink++; }
int main (void)
{
  for (int i = 0; i < 5; i++)
    {
      pid_t p = fork ();
      if (p < 0)
        return 2;
      if (p == 0)
        {
          child_work (2000000);
          exit (0);
        }
      if (waitpid (p, NULL, 0) != p)
        return 3;
    }
  spin (2000000);
  fputs ("parent done\n", stderr);
  return 0;
}
EOF
$CC -O2 $cflags -o "$tmp/kids" "$tmp/kids.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building kids ($cflags)"; finish; }

for clock in cpu sample; do
  rm -rf "$tmp/run"
  mkdir "$tmp/run"
  (cd "$tmp/run" && AMON_CLOCK=$clock ../kids 2>../stderr) || fail "AMON_CLOCK=$clock: kids exited $?"
  [ "$(cat "$tmp/stderr")" = "parent done" ] \
    || fail "AMON_CLOCK=$clock: standard error holds more than the program wrote: $(head -c 400 "$tmp/stderr")"
  set -- "$tmp"/run/amon.out.*
  [ $# -eq 5 ] || { fail "AMON_CLOCK=$clock: $# children's files, not 5"; continue; }
  for f in "$@"; do
    "$cgcost" --format=tsv --arcs "$f" >"$tmp/tsv" 2>"$tmp/err" || { fail "cgcost $f: $(cat "$tmp/err")"; continue; }
    arcs=$(awk -F '\t' 'NR > 1 { printf "%s%s>%s:%s", sep, $1, $2, $3; sep = " " }' "$tmp/tsv" | tr ' ' '\n' | sort | tr '\n' ' ')
    [ "$arcs" = "child_work>spin:1 main>child_work:1 " ] \
      || fail "AMON_CLOCK=$clock: a child's arcs '$arcs', not main>child_work:1 and child_work>spin:1"
    "$cgcost" --format=text "$f" >"$tmp/text" 2>"$tmp/err" || { fail "cgcost --format=text $f: $(cat "$tmp/err")"; continue; }
    if [ "$clock" = sample ]; then
      notes "$tmp/text" | grep -q "^Note: a child of fork(2) profiled with AMON_CLOCK=sample: its calls are counted, its time is not" \
        || fail "AMON_CLOCK=sample: the child's view does not say that it has no times: $(head -c 400 "$tmp/text")"
    elif grep -q "a child of fork" "$tmp/text"; then
      fail "AMON_CLOCK=cpu: the child's view says it has no times, but the default clock times children"
    fi
  done
  "$cgmerge" "$tmp"/run/amon.out* | "$cgcost" --format=text >"$tmp/text" 2>"$tmp/err" \
    || { fail "AMON_CLOCK=$clock: cgcost of the six files: $(cat "$tmp/err")"; continue; }
  grep -q "^Profiles: 6 files (amon): [^ ]*/amon.out[.0-9]*, [^ ]*/amon.out[.0-9]*, [^ ]*/amon.out[.0-9]* and 3 more\$" "$tmp/text" \
    || fail "AMON_CLOCK=$clock: the six files are not named on one line: $(head -c 300 "$tmp/text")"
  [ "$(grep -c "^Profile:" "$tmp/text")" = 0 ] || fail "AMON_CLOCK=$clock: a Profile line per file"
  if [ "$clock" = sample ]; then
    [ "$(notes "$tmp/text" | grep -c "^Note (.*): a child of fork")" = 1 ] \
      && notes "$tmp/text" | grep -q "^Note ([^ ]*/amon.out.[0-9]* and 4 others alike): a child of fork(2) profiled with AMON_CLOCK=sample" \
      || fail "AMON_CLOCK=sample: the children's note is not printed once: $(grep "^Note" "$tmp/text" | head -c 600)"
    # two children's files among five (the parent's, which has no note,
    # three times): "and 1 other alike", not "and 1 others alike"
    "$cgmerge" "$tmp/run/amon.out" "$tmp/run/amon.out" "$tmp/run/amon.out" "$1" "$2" | "$cgcost" --format=text >"$tmp/text" \
      2>"$tmp/err" || { fail "AMON_CLOCK=sample: cgcost of five files: $(cat "$tmp/err")"; continue; }
    notes "$tmp/text" | grep -q "^Note ([^ ]*/amon.out.[0-9]* and 1 other alike): a child of fork(2) profiled with AMON_CLOCK=sample" \
      || fail "AMON_CLOCK=sample: two children's note: $(grep "^Note" "$tmp/text" | head -c 600)"
  else
    notes=$(grep -c "^Note" "$tmp/text")
    [ "$notes" -ge 1 ] && [ "$notes" -le 3 ] \
      || fail "AMON_CLOCK=cpu: $notes notes for six files whose notes differ in their numbers"
  fi
done

finish
