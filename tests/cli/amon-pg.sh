#!/bin/sh
# libamon's -pg mode (x86-64): programs built as for gprof (-pg, and
# -pg -mfentry), by gcc and by clang, linked with -lamon only, with the
# exact clock (returns caught by a trampoline) and the sampling clock
# (returns seen at the next call or sample), and clang's
# -finstrument-functions-after-inlining.  tests/amon/pg-program.c and
# pg-throw.cc count their own calls; the profile's call counts must equal
# them, and the arcs must be those the programs' structure makes, after
# longjmp and siglongjmp out of deep recursion, C++ exceptions thrown
# through swapped return addresses (with destructors, a rethrow, a catch
# inside a destructor during unwinding), signal handlers, four threads,
# fork, exit from deep inside, tail calls, coroutines (on stacks far apart
# and side by side), arguments passed on the stack,
# callbacks from a library's recursion, and registers (general, vector,
# x87) that a caller keeps across a call.  Times: the exact total of
# each phase of the timed mode is within 15% of what the program measured
# with its thread's CPU clock (the leaves are some microseconds, the
# monitor's residual cost per call a few nanoseconds; a run may be
# repeated twice on a loaded machine).
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode is for x86-64" ;; esac
libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
[ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
src="$top_srcdir/tests/amon"
CC=${CC:-cc}

# build NAME COMPILER FLAGS... — $tmp/NAME, linked with -lamon (shared)
# and -z now, as amon.pc's Libs say
build () {
  name=$1 comp=$2
  shift 2
  $comp -O2 "$@" -pthread -o "$tmp/$name" "$src/pg-program.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" -ldl \
    >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building $name ($comp $*)"; return 1; }
}

# run NAME MODE [STATUS [ARG]] — runs it in $tmp/run, its arcs in $tmp/arcs
run () {
  rm -rf "$tmp/run"
  mkdir "$tmp/run"
  (cd "$tmp/run" && "$tmp/$1" "$2" ${4:+"$4"} >"$tmp/counts" 2>"$tmp/stderr")
  got=$?
  [ "$got" = "${3:-0}" ] || { fail "$1 $2 exited $got: $(head -c 300 "$tmp/stderr")"; return 1; }
  [ -s "$tmp/run/amon.out" ] || { fail "$1 $2 wrote no amon.out"; return 1; }
  arcs_of "$tmp/run/amon.out" >"$tmp/arcs" || return 1
}

# arcs_of FILE — caller, callee, calls, inclusive of each arc
arcs_of () {
  "$cgmerge" "$1" | "$cgcost" --format=tsv --arcs | awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" $4 }' \
    || fail "cannot read $1"
}

# counted NAME — the program's own count of calls of NAME
counted () {
  awk -v n="$1" '$1 == n { print $2 }' "$tmp/counts"
}

# is NAME — awk condition: field $2 is routine NAME (a C++ name mangled,
# with gcc's clone suffixes too)
is () {
  echo '($2 == "'"$1"'" || $2 ~ /^_ZL?[0-9]+'"$1"'[A-Za-z]/)'
}

# into NAME [ARCS] — calls of NAME the profile shows
into () {
  awk -F '\t' "$(is "$1") { s += \$3 } END { print s + 0 }" "${2:-$tmp/arcs}"
}

# arc CALLER CALLEE WANT — that arc's calls
arc () {
  got=$(awk -F '\t' -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3 }' "$tmp/arcs")
  [ "$got" = "$3" ] || fail "$what: $1 -> $2 made '$got' calls, the program makes $3"
}

# same NAME... — the profile counts each NAME's calls as the program did
same () {
  for n in "$@"; do
    want=$(counted "$n")
    got=$(into "$n")
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "$what: $n called $got times in the profile, $want by the program"
  done
}

# only_from NAME CALLER — NAME has no other caller
only_from () {
  others=$(awk -F '\t' -v c="$2" "$(is "$1") && \$1 != c" "$tmp/arcs")
  [ -z "$others" ] || fail "$what: $1 has callers other than $2: $others"
}

# check_stackargs BUILD — calls that pass arguments on the stack are their
# callers', not those of the sibling called before them (the sampling
# clock, where no return is seen when it happens, took them for the
# sibling's callees: gcc pushes an argument over the sibling's return
# address, clang pads the stack there first); a callback from qsort's
# recursion is the caller of qsort's, its leaf the callback's
check_stackargs () {
  what="$1 stackargs ${AMON_CLOCK:-cpu}"
  if run "$1" stackargs; then
    same sibling many7 many8 many9 padder stacker compare cmp_leaf
    only_from many7 stacker
    only_from many8 stacker
    only_from many9 padder
    arc stacker sibling 2000
    arc padder sibling 1000
    only_from compare sorter
    only_from cmp_leaf compare
  fi
}

# check_walk BUILD — a library's recursion (no hooks) calling back a
# visitor between its descents, and a recursion padding the calls it makes
# after each recursive call: each call is its caller's.  (The sampling
# clock took the visitor's calls for its leaf's, whose return address
# stayed in the library's frame above the next callback, as jq 1.6's
# sort_cmp under qsort(3).)
check_walk () {
  what="$1 callback ${AMON_CLOCK:-cpu}"
  if run "$1" callback; then
    same visit visit_leaf visitor
    only_from visit visitor
    only_from visit_leaf visit
  fi
  what="$1 recpad ${AMON_CLOCK:-cpu}"
  if run "$1" recpad; then
    same recpad many9
    arc main recpad 100
    arc recpad recpad 1000
    only_from many9 recpad
  fi
}

# check_plugin BUILD — a plugin loaded by dlopen(3) after the first calls
# makes a padded call after its sibling's: the call is its caller's (the
# sampling clock took it for the sibling's, the plugin's unwind tables
# unknown)
check_plugin () {
  what="$1 plugin ${AMON_CLOCK:-cpu}"
  if [ -f "$tmp/$1-plugin.so" ] && run "$1" plugin 0 "$tmp/$1-plugin.so"; then
    same plug_padder plug_sibling plug_many9
    only_from plug_many9 plug_padder
    only_from plug_sibling plug_padder
  fi
}

# the C checks, for one build
check_c () {
  b=$1
  what="$b recursive"
  if run "$b" recursive; then
    same walk leaf even odd
    arc main walk 10
    arc walk walk 20460
    arc even odd 500
    arc odd even 490
  fi
  what="$b longjmp"
  if run "$b" longjmp; then
    same deep jumper after
    arc jumper deep 50
    arc deep deep 5000
    arc main after 1000
    only_from after main
  fi
  what="$b samesite"
  if run "$b" samesite; then
    same leaper after
    arc main leaper 100
    only_from leaper main
    only_from after main
  fi
  what="$b siglongjmp"
  if run "$b" siglongjmp; then
    same deep jumper after handler_work
    only_from handler_work on_usr2
    arc deep deep 2000
    arc main after 1000
    only_from after main
  fi
  what="$b signals"
  if run "$b" signals; then
    same walk
    # the raised signals' handlers run outside any hook: all counted
    [ "$(into handler_work)" = 30 ] || fail "$what: handler_work called $(into handler_work) times, not 30"
    arc main deep 30
    arc deep deep 1500
  fi
  what="$b threads"
  if run "$b" threads; then
    same walk leaf
    arc worker walk 20
    # calls from a key's destructor as the thread exits, which may run
    # after the monitor's own (it put off its end to the last round)
    arc exit_key_dtor at_thread_exit 4
  fi
  what="$b fork"
  if run "$b" fork; then
    child=$(awk '$1 == "child" { print $2 }' "$tmp/counts")
    if [ -s "$tmp/run/amon.out.$child" ]; then
      arcs_of "$tmp/run/amon.out.$child" >"$tmp/child.arcs"
      [ "$(into child_only "$tmp/child.arcs")" = 7 ] || fail "$what: the child's profile lacks its 7 calls"
      [ "$(into walk "$tmp/child.arcs")" = 49 ] || fail "$what: the child's profile has $(into walk "$tmp/child.arcs") calls of walk, not 49"
    else
      fail "$what: no profile from the child $child"
    fi
    arc main parent_only 5
    [ "$(into walk)" = 66 ] || fail "$what: the parent's profile has $(into walk) calls of walk, not 66"
  fi
  # a child of vfork calls a routine before it execs, on its parent's
  # memory and so on the parent's monitor: the parent's time waiting for
  # it (the exec and the shell's run) was off the processor, and stays out
  # of the profile (the child's check took its own CPU clock for the
  # parent's, and the parent's next found no time off it: 0.1 s of waits
  # for 0.01 s of CPU)
  what="$b vfork"
  if run "$b" vfork; then
    "$cgcost" --format=tsv "$tmp/run/amon.out" | awk -F '\t' -v t="$(counted time_vfork)" '$1 == "main" { m = $4 } END {
        printf "vfork: main %.6f s, the thread ran %.6f s\n", m, t / 1e9; exit !(t > 0 && m * 1e9 < 1.25 * t + 2e6) }' \
      || fail "$what: the waits for the children are in the profile"
  fi
  what="$b exit"
  if run "$b" exit 3; then
    arc main deep 1
    arc deep deep 500
  fi
  what="$b coroutines"
  if run "$b" coroutines; then
    # the contexts are the monitor's guess across stacks; counts are exact
    same co_work yield_back main_work
  fi
  # coroutines' stacks side by side: a frame of one is not taken for a
  # frame the other left by a jump, for good (the program ended in an
  # abort, 'its return address is not on the thread's stack of swapped
  # addresses', as CRuby's miniruby did with two fibers), and the tail
  # call that ends a resumed yield is counted
  what="$b fibers"
  if run "$b" fibers; then
    same fib_work fib_yield fib_after fib_resume
  fi
  check_stackargs "$b"
  # what a caller keeps in registers across a call (as gcc's -fipa-ra
  # lets it), the hooks and the trampoline keep too
  what="$b registers"
  if run "$b" registers; then
    [ "$(counted regs_kept)" = 2000 ] || fail "$what: the registers were kept across $(counted regs_kept) of 2000 calls"
    [ "$(into reg_leaf)" = 1000 ] && [ "$(into reg_leaf_told)" = 1000 ] \
      || fail "$what: reg_leaf called $(into reg_leaf) times, reg_leaf_told $(into reg_leaf_told), not 1000 each"
  fi
  # and the whole vector and x87 state, which the C library's memory
  # functions write when the monitor's rare path calls them
  what="$b vectors"
  if run "$b" vectors; then
    [ "$(counted vec_kind)" = 0 ] || [ "$(counted vec_kept)" = "$(counted vec_calls)" ] \
      || fail "$what: the vector state (kind $(counted vec_kind)) was kept across $(counted vec_kept) of $(counted vec_calls) calls"
    [ "$(counted vec_calls)" = 584 ] || [ "$(counted vec_kind)" = 0 ] || fail "$what: $(counted vec_calls) calls, not 584"
  fi
  what="$b tail"
  if run "$b" tail; then
    same tail_a tail_b
    # as in gprof: a routine reached by a jump is called by its caller's caller
    arc main tail_a 1000
  fi
}

# timed BUILD — each phase's exact total against the program's clock
timed () {
  what="$1 timed"
  for try in 1 2 3; do
    run "$1" timed || return
    "$cgmerge" "$tmp/run/amon.out" | "$cgcost" --format=tsv >"$tmp/flat" || { fail "$what: cgcost"; return; }
    w=$(total_of "$tmp/flat" walk)
    e=$(total_of "$tmp/flat" even)
    tw=$(counted time_walk)
    te=$(counted time_even)
    awk -v w="$w" -v e="$e" -v tw="$tw" -v te="$te" 'BEGIN {
        dw = w * 1e9 / tw - 1; de = e * 1e9 / te - 1
        printf "walk %.6f s (program %.6f s), even %.6f s (program %.6f s)\n", w, tw / 1e9, e, te / 1e9
        exit !(dw < 0.15 && dw > -0.15 && de < 0.15 && de > -0.15) }' && return
    echo "run $try of $what was off"
  done
  fail "$what: the totals are not within 15% of the program's own times in three runs"
}

# flag_sets COMPILER — the -pg builds to try with it, one per line: gprof's
# two, and where the compiler has it (gcc 10 and later) gcc's
# -minstrument-return=call, whose routines tell their returns to
# `__return__` and keep their return addresses
told="-pg -mfentry -minstrument-return=call"
flag_sets () {
  printf '%s\n' "-pg" "-pg -mfentry"
  echo 'int f (int x) { return x + 1; }' >"$tmp/told.c"
  "$1" -O2 $told -c -o "$tmp/told.o" "$tmp/told.c" >/dev/null 2>&1 && echo "$told"
}

compilers=$CC
command -v clang >/dev/null 2>&1 && compilers="$compilers clang"
tolds=
for comp in $compilers; do
  sets=$(flag_sets "$comp")
  old_ifs=$IFS
  IFS='
'
  for flags in $sets; do
    IFS=$old_ifs
    b="$(basename "$comp")$(echo "$flags" | tr -d ' ')"
    build "$b" "$comp" $flags || continue
    $comp -O2 $flags -fPIC -shared -o "$tmp/$b-plugin.so" "$src/pg-plugin.c" >"$tmp/build.log" 2>&1 \
      || fail "building the plugin ($comp $flags): $(cat "$tmp/build.log")"
    check_c "$b"
    check_plugin "$b"
    check_walk "$b"
    [ "$flags" = "$told" ] && tolds="$tolds $b"
  done
  IFS=$old_ifs
done
# a program that tells its returns with a plugin that does not, and the
# other way round: each routine's returns are caught its own way
for b in $tolds; do
  plain=$(echo "$b" | sed 's/-minstrument-return=call$//')
  if [ -f "$tmp/$plain-plugin.so" ] && [ -x "$tmp/$plain" ]; then
    cp "$tmp/$plain-plugin.so" "$tmp/$b-mixed-plugin.so"
    ln -sf "$b" "$tmp/$b-mixed"
    check_plugin "$b-mixed"
    cp "$tmp/$b-plugin.so" "$tmp/$plain-mixed-plugin.so"
    ln -sf "$plain" "$tmp/$plain-mixed"
    check_plugin "$plain-mixed"
  fi
done
build timed "$CC" -pg -mfentry && timed timed
for b in $tolds; do
  cp "$tmp/$b" "$tmp/timed-told" && timed timed-told
done

# what the hooks cost is measured through them and taken out: a routine
# that does nothing keeps little of the time its million calls took
# (calibrated on another path, the -pg hooks' cost was left in it, a
# third of the loop's time), whether its returns go through the
# trampoline or are told (no trampoline: another cost, measured so too).
# Nor more than that: the calibrations take the way the program's calls
# take, so the lowest is not far above what a call or a return of the
# loop cost in all (calibrated from the root's sentinel, every -pg call
# took the slow way, which keeps the vector state: 8 times as much, and
# short intervals came out as nothing).  The calibrations follow the
# load only as far as their lowest does, and the run is too short for
# its samples to check them, so another process's burst can leave a
# third of the loop in the routine: the best of three runs counts.
for b in timed timed-told; do
  [ -x "$tmp/$b" ] || continue
  what="empty calls of $b"
  for try in 1 2 3; do
    run "$b" empty || break
    "$cgmerge" "$tmp/run/amon.out" | "$cgcost" --format=tsv >"$tmp/flat" || { fail "$what: cgcost"; break; }
    lowest=$("$cgmerge" --format=text "$tmp/run/amon.out" | sed -n 's/.* calibrations over the run: lowest \([0-9.]*\),.*/\1/p')
    awk -F '\t' -v t="$(counted time_empty)" -v l="$lowest" '$1 == "nothing" { n = $4 } END {
        e = t / 2e6
        printf "nothing: %.6f s of a loop of %.6f s; lowest calibration %.2f ns, the loop %.2f ns a call or a return\n", n, t / 1e9, l, e
        exit !(t > 0 && n * 1e9 < 0.25 * t && l > 0 && l < 2 * e) }' "$tmp/flat" && break
    [ "$try" = 3 ] && fail "$what: the hooks' own cost was charged to the routine, or more than it was taken out"
  done
done

# backtrace(3) sees through the swapped return addresses: as many frames
# as where nothing is swapped (the sampling clock's way)
what="backtrace"
if run timed backtrace; then
  swapped=$(counted frames)
  export AMON_CLOCK=sample
  run timed backtrace && plain=$(counted frames)
  unset AMON_CLOCK
  [ -n "$swapped" ] && [ "$swapped" = "${plain:-}" ] && [ "$swapped" -ge 9 ] \
    || fail "$what: $swapped frames through swapped return addresses, ${plain:-?} without"
  echo "backtrace: $swapped frames, as without swapping"
fi

# the sampling clock: no return address is swapped, a routine's return is
# seen at the next call or sample; the same counts and arcs
export AMON_CLOCK=sample
check_c timed
for comp in $compilers; do
  for flags in "-pg" "-pg -mfentry"; do
    b="$(basename "$comp")$(echo "$flags" | tr -d ' ')"
    [ -x "$tmp/$b" ] && check_plugin "$b" && check_walk "$b"
  done
done
# told returns, which this clock does not need: the same counts and arcs
for b in $tolds; do
  check_c "$b"
  check_plugin "$b"
  check_walk "$b"
done
if [ -x "$tmp/clang-pg-mfentry" ]; then check_stackargs clang-pg-mfentry; fi
# a sample taken after a routine returned is its caller's: settler's
# own loop is nearly all the time, tiny's calls almost nothing
what="sample settle"
if run timed settle; then
  same tiny settler
  "$cgmerge" "$tmp/run/amon.out" | "$cgcost" --format=tsv >"$tmp/flat" || fail "$what: cgcost"
  awk -F '\t' '$1 == "settler" { s = $3 } $1 == "tiny" { t = $4 } END {
      printf "settler self %.3f s, tiny total %.3f s\n", s, t; exit !(s > 0.05 && t < 0.1 * s) }' "$tmp/flat" \
    || fail "$what: samples after tiny returned were charged to tiny"
fi
# a frame left on a coroutine's stack that was unmapped since, just above
# the thread's stack: the calls after it neither read it (a crash) nor
# lose their counts
what="freed stack"
if run timed freedstack; then
  if [ "$(counted placed)" = 1 ]; then
    same after_free
  else
    echo "freed stack: could not map the coroutine's stack above the thread's"
  fi
fi

# samples taken in the monitor's hooks are the monitor's, as gprof's
# histogram leaves out mcount: a routine that does nothing keeps little of
# the time its 30 million calls took (its own samples and the hooks' were
# charged to it, or to main, more than half the loop)
what="sample empty calls"
if run timed emptylong; then
  "$cgmerge" "$tmp/run/amon.out" | "$cgcost" --format=tsv >"$tmp/flat" || fail "$what: cgcost"
  awk -F '\t' -v t="$(counted time_empty)" 'NR > 1 { all += $3 } $1 == "nothing" { n = $4 } END {
      printf "nothing: %.3f s, all: %.3f s of a loop of %.3f s\n", n, all, t / 1e9
      exit !(t > 0 && n * 1e9 < 0.25 * t && all * 1e9 < 0.5 * t) }' "$tmp/flat" \
    || fail "$what: the hooks' samples were charged to the program"
fi
unset AMON_CLOCK

# a statically linked program (libamon.a): the same hooks
what="static"
if [ -f "$libdir/libamon.a" ] && $CC -O2 -pg -pthread -o "$tmp/static" "$src/pg-program.c" "$libdir/libamon.a" -ldl \
     >"$tmp/build.log" 2>&1; then
  run static longjmp && same deep after && only_from after main
else
  fail "cannot link the program with libamon.a: $(cat "$tmp/build.log")"
fi

# glibc's gmon is not started: no gmon.out beside amon.out
what="gmon"
run "$(basename "$CC")-pg" recursive
[ -e "$tmp/run/gmon.out" ] && fail "a -pg program linked with -lamon wrote gmon.out"

# clang's hooks after inlining, unchanged
if command -v clang >/dev/null 2>&1; then
  if build after-inlining clang -finstrument-functions-after-inlining; then
    what="after-inlining"
    run after-inlining recursive && same walk leaf even odd
    run after-inlining longjmp && same deep after && only_from after main
  fi
fi

# C++: exceptions through swapped return addresses, with the shared
# library (its wrappers put the addresses back before the unwinder walks)
# and with libamon.a, in a dynamic program and a -static one (the
# trampoline's unwind entry and personality alone: a static libamon had no
# wrappers, and every throw through a hooked frame ended in std::terminate,
# a cancelled thread ran one destructor of 12; an exception thrown in a
# coroutine through frames put aside at a switch ended in std::terminate)
cxx=
for c in ${CXX:-} g++ clang++; do
  command -v "$c" >/dev/null 2>&1 && cxx="$cxx $c"
done
# throw_check WHAT COMPILER FLAGS... — builds pg-throw.cc, runs it, checks
throw_check () {
  what=$1 c=$2
  shift 2
  $c -O2 "$@" >"$tmp/build.log" 2>&1 || { fail "$what: does not build: $(cat "$tmp/build.log")"; return; }
  (cd "$tmp" && rm -f amon.out && ./throw >"$tmp/counts" 2>"$tmp/stderr") \
    || { fail "$what: the program failed: $(cat "$tmp/counts" "$tmp/stderr")"; return; }
  arcs_of "$tmp/amon.out" >"$tmp/arcs" || return
  same descend cleanup inner_throw rethrower guarded after prober fib_dive
  # after the exceptions, main's calls are main's
  only_from after main
  # the exception's destructor, which the C++ runtime calls at the end of
  # the catch, is called for the routine that caught it, not for one the
  # exception passed (whose frame lay above the runtime's)
  awk -F '\t' -v n="$(counted deep_gone)" '$2 ~ /^_ZN4DeepD[12]Ev$/ { if ($1 ~ /^_ZL6proberi/) c += $3; else { printf "%s -> %s %s\n", $1, $2, $3; bad = 1 } }
      END { if (c != n) { printf "from prober %d, the program counted %s\n", c, n; bad = 1 }; exit bad }' "$tmp/arcs" >"$tmp/deep" \
    || fail "$what: ~Deep's calls: $(cat "$tmp/deep")"
}
printf 'int main () { try { throw 1; } catch (int) { } return 0; }\n' >"$tmp/probe.cc"
for c in $cxx; do
  static=
  [ -f "$libdir/libamon.a" ] && $c -static -o "$tmp/probe" "$tmp/probe.cc" >/dev/null 2>&1 && static=yes
  [ -n "$static" ] || echo "no static C++ link with $c here: libamon.a not tried"
  sets=$(flag_sets "$c")
  old_ifs=$IFS
  IFS='
'
  for flags in $sets; do
    IFS=$old_ifs
    throw_check "$c $flags throw" $c $flags -pthread -o "$tmp/throw" "$src/pg-throw.cc" -L"$libdir" -lamon -Wl,-rpath,"$libdir"
    [ -n "$static" ] || continue
    throw_check "$c $flags throw, libamon.a" $c $flags -pthread -o "$tmp/throw" "$src/pg-throw.cc" "$libdir/libamon.a"
    throw_check "$c $flags throw, -static" $c $flags -static -pthread -o "$tmp/throw" "$src/pg-throw.cc" "$libdir/libamon.a"
  done
  IFS=$old_ifs
done

# the recommended flags
if command -v pkg-config >/dev/null 2>&1 && [ -f "$top_builddir/src/amon/amon.pc" ]; then
  flags=$(PKG_CONFIG_PATH="$top_builddir/src/amon" pkg-config --cflags amon) || fail "pkg-config amon"
  want="-pg -mfentry"
  flag_sets "$CC" | grep -qx -- "$told" && want=$told
  [ "$(echo $flags)" = "$want" ] || fail "amon.pc's Cflags on x86-64 are '$flags', not '$want'"
  portable=$(PKG_CONFIG_PATH="$top_builddir/src/amon" pkg-config --variable=portable_cflags amon)
  [ "$(echo $portable)" = "-pg -mfentry" ] || fail "amon.pc's portable_cflags on x86-64 are '$portable'"
fi
finish
