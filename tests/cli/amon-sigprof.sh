#!/bin/sh
# libamon and a program that handles SIGPROF itself.  The monitor's
# samples are SIGPROF; GNU sort 9.1 installs a handler for SIGPROF, as
# for SIGTERM, that removes its temporary files, sets the default action
# back and raises the signal again, so the monitor's first sample after
# that killed it (exit by SIGPROF, its output lost), with either clock,
# and a program that asked for SIGPROF's disposition found the monitor's
# handler where it had left the default.  The program here does what sort
# does and more; the oracles are the bare program (built without libamon,
# run the same way: its exit status, what it prints) and its structure
# (main calls work twice, work calls leaf 20 million times, main raises
# SIGPROF twice and the handler runs for each):
#  - it finds SIGPROF at its default action, installs its handler and no
#    sample of the monitor's reaches it;
#  - the two it raises reach its handler, nested in main;
#  - its own profiling timer (ITIMER_PROF) reaches its handler too;
#  - set back to the default action (signal(3)), SIGPROF ends it, as it
#    ends the bare program, and no sample did before it raised it;
#  - a child of vfork(2) that sets SIGPROF back to the default before it
#    would exec sets its own disposition, not the parent's, whose memory
#    it shares (the monitor kept the program's disposition there).
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup

cat >"$tmp/sigprof.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
volatile unsigned long sink;
static volatile sig_atomic_t got;
static void on_sig (int sig) { (void) sig; got++; }
__attribute__ ((noinline)) void leaf (long i) { sink += (unsigned long) i * 7; }
__attribute__ ((noinline)) void work (long n) { for (long i = 0; i < n; i++) leaf (i); }
int main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  struct sigaction sa, old;
  if (sigaction (SIGPROF, NULL, &old) != 0)
    return 4;
  /* sort takes the signals that are not ignored */
  printf ("SIGPROF %s\n", old.sa_handler == SIG_DFL ? "default" : "handled");
  fflush (stdout);
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sig;
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGPROF, &sa, NULL) != 0)
    return 5;
  work (10000000);
  if (got != 0)
    return 6;
  raise (SIGPROF);
  raise (SIGPROF);
  if (got == 1)
    {
      /* one of the two merged into a sample pending then (see below) */
      fputs ("a raise lost\n", stderr);
      return 7;
    }
  if (got != 2 || sigaction (SIGPROF, NULL, &old) != 0 || old.sa_handler != on_sig)
    return 7;
  if (strcmp (mode, "itimer") == 0)
    {
      struct itimerval every = { { 0, 1000 }, { 0, 1000 } };
      if (setitimer (ITIMER_PROF, &every, NULL) != 0)
        return 8;
      work (10000000);
      struct itimerval off = { { 0, 0 }, { 0, 0 } };
      setitimer (ITIMER_PROF, &off, NULL);
      printf ("timer %s\n", got > 2 ? "seen" : "lost");
      return 0;
    }
  if (strcmp (mode, "vfork") == 0)
    {
      /* a child of vfork shares the parent's memory, not its handlers:
       * what it sets before it execs is its own */
      pid_t pid = vfork ();
      if (pid == 0)
        {
          signal (SIGPROF, SIG_DFL);
          _exit (0);
        }
      if (pid < 0 || waitpid (pid, NULL, 0) != pid || sigaction (SIGPROF, NULL, &old) != 0)
        return 10;
      raise (SIGPROF);
      if (got == 2 && old.sa_handler == on_sig)
        {
          fputs ("a raise lost\n", stderr);
          return 7;
        }
      printf ("handler %s, got %d\n", old.sa_handler == on_sig ? "kept" : "lost", (int) got);
      return 0;
    }
  if (strcmp (mode, "die") == 0)
    {
      signal (SIGPROF, SIG_DFL);
      work (10000000);
      fputs ("raising\n", stdout);
      fflush (stdout);
      raise (SIGPROF);
      /* it merged into a sample pending then, whose handler was the
       * monitor's (see below) */
      fputs ("a raise lost\n", stderr);
      return 7;
    }
  work (0);
  printf ("got %d\n", (int) got);
  return 0;
}
EOF
$CC -O2 -o "$tmp/bare" "$tmp/sigprof.c" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building the bare program"; finish; }
# shellcheck disable=SC2086 # the flags are words
$CC -O2 $cflags -o "$tmp/sigprof" "$tmp/sigprof.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building sigprof ($cflags)"; finish; }

# the bare program's behaviour in each mode: status and output
for mode in plain itimer die vfork; do
  (cd "$tmp" && ./bare $mode >"$tmp/bare.$mode" 2>&1)
  echo $? >"$tmp/bare.$mode.status"
done
[ "$(cat "$tmp/bare.plain")" = "SIGPROF default
got 2" ] || fail "the bare program printed '$(cat "$tmp/bare.plain")'"

# run_sigprof CLOCK MODE — runs the profiled program ($tmp/out, $status).
# The kernel keeps one SIGPROF pending, as it does any standard signal: a
# raise whose system call a sample's timer expired in merges into the
# sample and is lost (libamon(3), SIGPROF), once in some 300 runs beside
# four spinning processes, and in 1 of 10 runs of this test at a load of
# 10 on two cores (die mode's raise, which then returned; the vfork
# mode's in 1 of 10 more).  The program
# says so wherever a raise is lost (status 7, "a raise lost"), and that
# run is made again, twice at most; a sample that reached the handler is
# no such loss.
run_sigprof () {
  for try in 1 2 3; do
    rm -f "$tmp/amon.out"
    (cd "$tmp" && AMON_CLOCK=$1 ./sigprof $2 >"$tmp/out" 2>&1)
    status=$?
    [ "$status" = 7 ] && [ "$(tail -n 1 "$tmp/out")" = "a raise lost" ] || break
    echo "AMON_CLOCK=$1 $2: a raise merged into a pending sample (try $try)"
  done
}

for clock in cpu sample; do
  for mode in plain itimer die vfork; do
    run_sigprof $clock $mode
    [ "$status" = "$(cat "$tmp/bare.$mode.status")" ] \
      || fail "AMON_CLOCK=$clock $mode: exit status $status, the bare program's $(cat "$tmp/bare.$mode.status") ($(head -c 200 "$tmp/out"))"
    [ "$(cat "$tmp/out")" = "$(cat "$tmp/bare.$mode")" ] \
      || fail "AMON_CLOCK=$clock $mode: printed '$(head -c 200 "$tmp/out")', the bare program '$(cat "$tmp/bare.$mode")'"
  done
  # the plain run's profile: its calls, the handler's nested in main (a
  # run that lost a raise made again, as above)
  run_sigprof $clock ""
  "$cgcost" --format=tsv --arcs "$tmp/amon.out" >"$tmp/tsv" 2>&1 \
    || { fail "AMON_CLOCK=$clock: cannot read amon.out: $(head -c 300 "$tmp/tsv")"; continue; }
  arcs=$(awk -F '\t' 'NR > 1 { print $1 ">" $2 ":" $3 }' "$tmp/tsv" | sort | tr '\n' ' ')
  [ "$arcs" = "main>on_sig:2 main>work:2 work>leaf:10000000 " ] \
    || fail "AMON_CLOCK=$clock: arcs '$arcs'"
done
finish
