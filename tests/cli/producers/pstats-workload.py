# pstats-workload.py — a Python program for tests/cli/pstats.sh, run
# under cProfile and profile: direct recursion (fib), mutual recursion
# (even, odd), a generator (squares), built-ins (sorted, len, list.append)
# and two functions of one name in this file (step, at two lines), which
# pyprof2calltree names "step:LINE".


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def even(n):
    return True if n == 0 else odd(n - 1)


def odd(n):
    return False if n == 0 else even(n - 1)


def squares(n):
    for i in range(n):
        yield i * i


def step(x):
    return x + 1


first_step = step


def step(x):
    return x + 2


def main():
    total = 0
    for i in range(40):
        total += fib(10) + even(i % 25) + odd(i % 7)
    for i in range(30):
        total += sum(squares(50))
    seen = []
    for i in range(200):
        seen.append(first_step(i) + step(i))
    total += len(sorted(seen, reverse=True))
    return total


print(main())
