# workload.py — a Python program for pyprof2calltree (tests/cli/producers.sh):
# self-recursion (fib), mutual recursion (even, odd), a leaf called from
# thirty callers (whose calls' costs pyprof2calltree rounds one by one),
# and methods whose names hold apostrophes.
import io


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def even(n):
    return True if n == 0 else odd(n - 1)


def odd(n):
    return False if n == 0 else even(n - 1)


def leaf(x):
    return x * 3 + 1


def make_caller(i):
    def caller(n):
        s = 0
        for k in range(n):
            s += leaf(k + i)
        return s
    caller.__code__ = caller.__code__.replace(co_name="caller%02d" % i)
    return caller


callers = [make_caller(i) for i in range(30)]


def main():
    s = 0
    for i in range(60):
        s += fib(12) + even(i % 40)
    for c in callers:
        s += c(200)
    buf = io.StringIO("x" * 1000)
    s += len(buf.read())
    return s


main()
