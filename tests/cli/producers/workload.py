# workload.py — a Python program for pyprof2calltree (tests/cli/producers.sh):
# self-recursion (fib), mutual recursion (even, odd), a leaf called from
# thirty callers (whose calls' costs pyprof2calltree rounds one by one),
# methods whose names hold apostrophes, and a leaf of the same name in
# another file (helper.py).
import io
import os
import types

# helper.py's leaf, made from its code without importing it: an import
# under the profiler runs the import machinery, whose calls recurse
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "helper.py")) as source:
    module_code = compile(source.read(), os.path.join(here, "helper.py"), "exec")
helper_leaf = types.FunctionType(
    next(c for c in module_code.co_consts if isinstance(c, types.CodeType)), {})


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
    for k in range(300):
        s += helper_leaf(k)
    buf = io.StringIO("x" * 1000)
    s += len(buf.read())
    return s


main()
