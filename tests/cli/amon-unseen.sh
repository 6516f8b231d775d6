#!/bin/sh
# libamon and a signal handler that calls routines while a hook runs: a
# SIGALRM every 200 us of real time, the main loop making small calls
# (tests/amon/unseen.c).  A handler that interrupts one of the monitor's
# hooks finds its tables half changed, and its calls are left out of the
# profile; the profile then said nothing of them, and its counts of the
# handler's routines fell short of the program's by 6% with the default
# clock, 46% with the sampling clock and 89% with -finstrument-functions.
# Now they are counted in amon.out (TOTALS field 17) and every view's
# note says how many: the profile's calls of the handler's routines plus
# those must be the program's own count, and the main loop's calls of
# leaf the program's, for each way to build and each clock.
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup

src="$top_srcdir/tests/amon/unseen.c"
unseen_total=0
# check NAME COMPILE-FLAGS LINK-FLAGS
check () {
  name=$1
  # shellcheck disable=SC2086 # the flags are words
  $CC -O2 $2 -o "$tmp/$name" "$src" $3 -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
    || { fail "building $name ($2): $(head -c 300 "$tmp/build.log")"; return; }
  for clock in cpu sample; do
    what="$name, AMON_CLOCK=$clock"
    rm -f "$tmp/amon.out"
    (cd "$tmp" && AMON_CLOCK=$clock "./$name" >"$tmp/out") || { fail "$what: exited $?"; continue; }
    handler=$(awk '$1 == "handler" { print $2 }' "$tmp/out")
    leaf=$(awk '$1 == "leaf" { print $2 }' "$tmp/out")
    "$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/tsv" 2>"$tmp/err" \
      || { fail "$what: cannot read its amon.out: $(head -c 300 "$tmp/err")"; continue; }
    counted=$(awk -F '\t' '$1 == "on_alarm" || $1 == "alarm_work" || $1 == "alarm_leaf" { s += $2 } END { print s + 0 }' "$tmp/tsv")
    profiled_leaf=$(awk -F '\t' '$1 == "leaf" { print $2 }' "$tmp/tsv")
    # the note, folded by the text view: its lines joined
    "$cgcost" --format=text "$tmp/amon.out" >"$tmp/text" 2>"$tmp/err" || { fail "$what: cgcost --format=text"; continue; }
    unseen=$(tr '\n' ' ' <"$tmp/text" | tr -s ' ' \
      | sed -n 's/.*[^0-9]\([0-9][0-9]*\) calls\{0,1\} that signal handlers made while they interrupted the monitor.s hooks.*/\1/p')
    unseen=${unseen:-0}
    [ "$profiled_leaf" = "$leaf" ] || fail "$what: leaf called $profiled_leaf times in the profile, $leaf by the program"
    if [ $((counted + unseen)) -eq "$handler" ]; then
      echo "$what: the handler made $handler calls: $counted in the profile, $unseen said to be left out"
    else
      fail "$what: the handler made $handler calls; the profile has $counted and says $unseen were left out"
    fi
    unseen_total=$((unseen_total + unseen))
  done
}

check recommended "$cflags" ""
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable" ""
case $(uname -m) in x86_64) check pg "-pg" "-pg" ;; esac
check instrument "-finstrument-functions" ""
# with -finstrument-functions the hooks hold most of the time: a run
# whose handler never interrupted one would leave the test unchecked
[ "$unseen_total" -gt 0 ] || fail "no run left a call of the handler out: nothing was checked"

finish
