# recursive.awk — bench/amon-honest.sh's mawk run: user functions that
# recurse (Fibonacci, the towers of Hanoi, a quicksort of generated keys),
# each awk call some dozens of calls of mawk's own routines of a few
# nanoseconds each.  mawk -v N=27 -f recursive.awk makes some 1.3e8 calls.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
function hanoi(n, a, b, c) { if (n == 0) return 0; return hanoi(n - 1, a, c, b) + 1 + hanoi(n - 1, c, b, a) }
function qs(A, lo, hi,   i, last, t) {
  if (lo >= hi) return
  t = A[lo]; A[lo] = A[int((lo + hi) / 2)]; A[int((lo + hi) / 2)] = t
  last = lo
  for (i = lo + 1; i <= hi; i++) if (A[i] < A[lo]) { last++; t = A[last]; A[last] = A[i]; A[i] = t }
  t = A[lo]; A[lo] = A[last]; A[last] = t
  qs(A, lo, last - 1); qs(A, last + 1, hi)
}
BEGIN {
  print fib(N); print hanoi(N - 6, "a", "b", "c")
  # keys from a linear congruential generator: the same in every run
  x = 1; for (i = 1; i <= 5000 * N; i++) { x = (x * 69069 + 1) % 4294967296; A[i] = "k" int(x / 4096) }
  qs(A, 1, 5000 * N); print A[1]
}
