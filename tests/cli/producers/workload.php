<?php
// workload.php — a PHP program for Xdebug's profiler (tests/cli/producers.sh):
// self-recursion (fib), mutual recursion (even, odd), a method, a closure,
// built-in functions called from several places.
function fib($n) { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }
function even($n) { return $n == 0 ? true : odd($n - 1); }
function odd($n) { return $n == 0 ? false : even($n - 1); }
class Pad { function width($x) { return strlen(str_repeat("a", $x)); } }
function twice($x) { return strlen(str_repeat("b", 2 * $x)); }
$s = 0;
$pad = new Pad;
for ($i = 0; $i < 40; $i++) {
  $s += fib(10) + (even($i % 20) ? 1 : 0) + $pad->width($i) + twice($i);
}
$f = function ($x) { return $x * 2; };
$s += $f(3);
echo $s, "\n";
