# words.awk — bench/amon-overhead.sh's mawk run: the words of its input
# counted, sorted by a recursive quicksort written in awk (count, then
# word), the first 20 printed, and a recursive Fibonacci: user functions
# that call each other and themselves, as awk programs do.
function compare(a, b) { return (cnt[a] != cnt[b]) ? cnt[b] - cnt[a] : (a < b ? -1 : a > b) }
function qsort(A, lo, hi,   i, last, t) {
  if (lo >= hi) return
  t = A[lo]; A[lo] = A[int((lo + hi) / 2)]; A[int((lo + hi) / 2)] = t
  last = lo
  for (i = lo + 1; i <= hi; i++)
    if (compare(A[i], A[lo]) < 0) { last++; t = A[last]; A[last] = A[i]; A[i] = t }
  t = A[lo]; A[lo] = A[last]; A[last] = t
  qsort(A, lo, last - 1); qsort(A, last + 1, hi)
}
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
{ for (i = 1; i <= NF; i++) { w = tolower($i); gsub(/[^a-z0-9]/, "", w); if (w != "") cnt[w]++ } }
END {
  n = 0; for (w in cnt) W[++n] = w
  qsort(W, 1, n)
  for (i = 1; i <= 20 && i <= n; i++) printf "%s %d\n", W[i], cnt[W[i]]
  print fib(22)
}
