# tmon.awk — a random Perl-like execution as Devel::DProf records it in
# tmon.out (subroutine entries "+", exits "-", ticks of the running one
# "@"), for kcachegrind-converters' dprof2calltree (tests/cli/producers.sh):
# self-recursion (fib, walk), no mutual recursion.
BEGIN {
  srand (11)
  print "#fOrTyTwO"; print "$hz=100;"; print "$XS_VERSION='DProf 20110802.00';"; print "PART2"
  n = split ("main::main main::fib Tree::walk Tree::leaf Util::log", names, " ")
  for (i = 1; i <= n; i++) { split (names[i], pn, "::"); print "&", i, pn[1], pn[2] }
  depth = 1; stack[1] = 1; print "+ 1"
  for (step = 0; step < 4000 && depth > 0; step++) {
    top = stack[depth]; r = rand ()
    if (r < 0.35) { print "@ 0 0", 1 + int (rand () * 20); continue }
    if (r < 0.62 && depth > 1 || depth > 40) { print "-", top; depth--; continue }
    if (top == 1) callee = 2 + int (rand () * 4)
    else if (top == 2) callee = (rand () < 0.7) ? 2 : 5
    else if (top == 3) callee = (rand () < 0.5) ? 4 : (rand () < 0.5 ? 3 : 5)
    else if (top == 4) callee = 5
    else { print "@ 0 0", 1 + int (rand () * 5); continue }
    stack[++depth] = callee; print "+", callee
  }
  while (depth > 0) { print "-", stack[depth]; depth-- }
}
