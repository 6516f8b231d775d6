// rec.js — a JavaScript program of known structure, profiled at test time
// by `node --cpu-prof` (tests/cli/v8.sh): direct recursion (down calls
// itself 30 deep), mutual recursion (ping and pong call each other 31
// deep), a leaf (spin) under every level of both, and an anonymous
// function (the callback of forEach).  Runs for about a third of a second.
'use strict';

function spin(n) {
  let x = 0;
  for (let i = 0; i < n; i++)
    x = (x + i * i) % 1000003;
  return x;
}

function down(n) {
  return n === 0 ? spin(20000) : down(n - 1) + spin(400);
}

function ping(n) {
  return n === 0 ? spin(5000) : pong(n - 1) + spin(300);
}

function pong(n) {
  return n === 0 ? spin(5000) : ping(n - 1) + spin(300);
}

function main() {
  const end = Date.now() + 350;
  let s = 0;
  while (Date.now() < end) {
    s += down(30);
    s += ping(31);
    [1, 2, 3].forEach(function (k) { s += spin(1000 * k); });
  }
  return s;
}

console.log(main() > 0 ? 'done' : 'odd');
