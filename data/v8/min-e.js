// min-e.js — the brute-force reference of tests/cli/v8.sh: reads a V8
// .cpuprofile and prints, per function, its self and total wall time (ns)
// and sample count, computed straight from the definitions and
// independently of cgtools' code:
//  - a sample's time: the samples put in time order (startTime plus the
//    deltas), each lasts until the next one, the last until endTime;
//  - Min_E (Kaes): a sample counts once for every distinct function on
//    its stack (the node's ancestors up to V8's "(root)"), and as self for
//    its node's function;
//  - a function is its callFrame's functionName ("(anonymous)" for ""),
//    url, and line where the url has the name at several lines (and
//    every anonymous function), printed as cgtools labels it: the name,
//    and " [URL@LINE]" (or the url alone) where several functions have it.
// Output: LABEL<TAB>SELF_NS<TAB>TOTAL_NS<TAB>SELF_SAMPLES<TAB>TOTAL_SAMPLES.
'use strict';
const fs = require('fs');
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

const byId = new Map(p.nodes.map(n => [n.id, n]));
const parent = new Map();
for (const n of p.nodes)
  for (const c of n.children || [])
    parent.set(c, n.id);

// functions: name + url + where, and the apart rule
const name = n => n.callFrame.functionName || '(anonymous)';
const groups = new Map();
for (const n of p.nodes) {
  const cf = n.callFrame, g = cf.url + '\u0000' + name(n);
  if (!groups.has(g))
    groups.set(g, { lines: new Set(), cols: new Map() });
  const e = groups.get(g);
  e.lines.add(cf.lineNumber);
  const cols = e.cols.get(cf.lineNumber) || new Set();
  cols.add(cf.columnNumber);
  e.cols.set(cf.lineNumber, cols);
}
function object(n) {
  const cf = n.callFrame, e = groups.get(cf.url + '\u0000' + name(n));
  const manyCols = [...e.cols.values()].some(s => s.size > 1);
  if (manyCols)
    return cf.url + '@' + (cf.lineNumber + 1) + ':' + (cf.columnNumber + 1);
  if (e.lines.size > 1 || cf.functionName === '')
    return cf.url + '@' + (cf.lineNumber + 1);
  return cf.url;
}
const isRoot = n => !parent.has(n.id) && n.callFrame.functionName === '(root)';
const key = n => object(n) + '\u0000' + name(n);

// times
let t = p.startTime;
const order = p.samples.map((id, i) => { t += p.timeDeltas[i]; return { t, i }; });
order.sort((a, b) => a.t - b.t || a.i - b.i);
const ns = new Array(p.samples.length);
order.forEach((s, k) => { ns[s.i] = ((k + 1 < order.length ? order[k + 1].t : p.endTime) - s.t) * 1000; });

const cost = new Map();
const at = k => { if (!cost.has(k)) cost.set(k, [0, 0, 0, 0]); return cost.get(k); };
p.samples.forEach((id, i) => {
  let n = byId.get(id);
  if (isRoot(n)) {
    const c = at(key(n));
    c[0] += ns[i]; c[1] += ns[i]; c[2]++; c[3]++;
    return;
  }
  at(key(n))[0] += ns[i];
  at(key(n))[2]++;
  const seen = new Set();
  for (; n && !isRoot(n); n = byId.get(parent.get(n.id))) {
    const k = key(n);
    if (seen.has(k))
      continue;
    seen.add(k);
    at(k)[1] += ns[i];
    at(k)[3]++;
  }
});

const names = new Map();
for (const k of cost.keys()) {
  const nm = k.split('\u0000')[1];
  names.set(nm, (names.get(nm) || 0) + 1);
}
for (const [k, c] of cost) {
  const [obj, nm] = k.split('\u0000');
  console.log([names.get(nm) > 1 ? `${nm} [${obj}]` : nm, ...c].join('\t'));
}
