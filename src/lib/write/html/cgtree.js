/* cgtree.js — the page of `cgtree --format=html`.
 *
 * The tree arrives as one JSON document (see cg-write-tree-html.c): names
 * interned once, and the nodes in depth-first order as a flat array of
 * [function, value, calls, shown children] quadruples.  Rows are built
 * only for the nodes on screen: expanding a node inserts its children's
 * rows after it, collapsing removes them, so a tree of a million nodes
 * costs nothing until it is opened.  All rows are siblings (indentation
 * is padding), so the depth of the tree never nests the DOM.
 */
(function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });

  /* the page's tree and, where the page has it, the other direction's
   * (the callers of a display tree, the callees of a callers tree) */
  var docs = [JSON.parse(document.getElementById('cg-data').textContent)];
  var otherDoc = document.getElementById('cg-other');
  if (otherDoc) docs.push(JSON.parse(otherDoc.textContent));
  var current = 0, D, nodes, N, fn, value, calls, nkids, parent, depth, open, pinned, estimated, rowOf;
  var inAll, allEstimated, size, master, names, cycle, selfCalls, headOf, tailOf, base, noise;
  var i;

  /* Makes docs[k] the tree shown: its lines' arrays, parents, depths and
   * subtree sizes from the depth-first order and child counts. */
  function load(k) {
    current = k; D = docs[k]; nodes = D.nodes; N = nodes.length / 4;
    fn = new Int32Array(N); value = new Float64Array(N); calls = new Float64Array(N);
    nkids = new Int32Array(N); parent = new Int32Array(N); depth = new Int32Array(N);
    open = new Uint8Array(N); pinned = new Uint8Array(N); estimated = new Uint8Array(N);
    rowOf = new Array(N); headOf = new Int32Array(N).fill(-1); tailOf = new Int32Array(N);
    for (var i = 0; i < N; i++) {
      fn[i] = nodes[4 * i]; value[i] = nodes[4 * i + 1]; calls[i] = nodes[4 * i + 2]; nkids[i] = nodes[4 * i + 3];
      tailOf[i] = i;
    }
    (D.estimated || []).forEach(function (n) { estimated[n] = 1; });
    /* a master node's function's total where it exceeds its call's */
    inAll = {};
    var ia = D.inAll || [];
    for (i = 0; i + 1 < ia.length; i += 2) inAll[ia[i]] = ia[i + 1];
    allEstimated = {};
    (D.inAllEstimated || []).forEach(function (n) { allEstimated[n] = 1; });
    var stack = [], left = [];
    for (i = 0; i < N; i++) {
      while (stack.length && left[left.length - 1] === 0) { stack.pop(); left.pop(); }
      parent[i] = stack.length ? stack[stack.length - 1] : -1;
      depth[i] = stack.length;
      if (stack.length) left[left.length - 1]--;
      if (nkids[i] > 0) { stack.push(i); left.push(nkids[i]); }
    }
    /* next sibling = i + subtree size */
    size = new Int32Array(N).fill(1);
    for (i = N - 1; i >= 0; i--) if (parent[i] >= 0) size[parent[i]] += size[i];
    master = D.master; names = D.names; cycle = D.cycle || []; selfCalls = D.selfCalls || [];
    /* --base: per line what the same call carried in the base (null: no
     * such call); the change column shows only where the tree has it */
    base = D.base || null;
    noise = D.noise || null;
    document.body.classList.toggle('diff', !!base);
    selected = -1; history = [];
  }
  var selected = -1, history = [];
  load(0);

  var tree = document.getElementById('tree');
  var slider = document.getElementById('th'), sliderOut = document.getElementById('thv');
  var search = document.getElementById('q'), hitsOut = document.getElementById('hits');
  var threshold = D.threshold;
  var hitFunctions = null, hits = [], hitAt = -1;

  var intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  var realFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  /* @x with @d decimals as the text view's printf rounds it: a value
   * exactly half-way goes to the even digit, where toFixed and Intl go
   * up (perf's 0.625 s: the text's 0.62, not 0.63).  toFixed(d + 25)
   * holds the double's exact decimals that far, enough to see a tie. */
  function fixed(x, d) {
    var s = x.toFixed(d), a = Math.abs(x);
    if (!(a < 1e15)) return s;
    var e = a.toFixed(d + 25), point = e.indexOf('.');
    if (!/^50*$/.test(e.slice(point + 1 + d))) return s;
    var down = e.slice(0, d > 0 ? point + 1 + d : point);
    return +down.charAt(down.length - 1) % 2 === 0 ? (x < 0 ? '-' : '') + down : s;
  }
  function human(v, real) { return real ? realFormat.format(+fixed(v * D.scale, 2)) : intFormat.format(v * D.scale); }
  function pct(v) { return D.all > 0 ? 100 * v / D.all : 0; }
  /* the mark of node @k's function total, as the text view prints it:
   * a percentage, as a cost where the two percentages print alike, and
   * none where the cost too prints as the line's does (the line's numbers
   * then contain its children as they stand) */
  function inAllText(k) {
    var all = fixed(pct(inAll[k]), 2), est = allEstimated[k] ? '~' : '';
    if (all !== fixed(pct(value[k]), 2)) return '(' + est + all + '% in all)';
    var cost = human(inAll[k], D.real);
    return cost !== human(value[k], D.real) ? '(' + est + cost + ' ' + D.unit + ' in all)' : '';
  }
  /* in a callers tree (D.given) every line has its own children, and
   * only a root's shows the function's self cost */
  function isMaster(n) { return D.given || master[fn[n]] === n; }
  function showsSelf(n) { return D.given ? parent[n] < 0 : isMaster(n); }
  function heat(p) {
    var t = Math.sqrt(Math.min(Math.max(p, 0), 100) / 100);
    return 'hsl(' + Math.round((1 - t) * 240) + ',80%,50%)';
  }
  function shown(n) { return pinned[n] || pct(value[n]) >= threshold; }

  /* ---- rows ---- */

  /* The nodes one row shows, as the text view joins them ("f > g"): a
   * node whose only shown child carries all but less than the threshold
   * of its cost, and whose own cost is below it too, takes that child
   * onto its row; eight at most. */
  function chain(n) {
    var c = [n];
    while (c.length < 8 && threshold > 0 && !D.noFold) {
      var m = c[c.length - 1], only = -1, count = 0;
      for (var k = m + 1, q = 0; q < nkids[m] && count < 2; q++, k += size[k]) if (shown(k)) { only = k; count++; }
      if (count !== 1) break;
      if (showsSelf(only) && pct(D.self[fn[only]]) >= threshold) break;
      if (pct(value[m]) - pct(value[only]) >= threshold) break;
      /* a total beside a name, below the row's cost, would read as less than its call */
      if (only in inAll && inAll[only] <= value[n]) break;
      c.push(only);
    }
    return c;
  }
  function callsText(n) {
    if (!calls[n]) return '';
    var f = fn[n], t = intFormat.format(calls[n]);
    if (!D.inverted && isMaster(n) && selfCalls[f]) t += '+' + intFormat.format(selfCalls[f]);
    return t + '\u00d7';
  }

  /* the change of line @n since the base: "+1,234", "-56" or "new";
   * "+8?" within the sampling noise, as the text marks it */
  function changeText(n) {
    if (base[n] === null) return 'new';
    var h = human(Math.abs(value[n] - base[n]), D.real || D.baseReal), sign = changeSign(n);
    return (sign < 0 ? '-' : '+') + h + (noise && (noise[n] || sign === 0) ? '?' : '');
  }
  /* the sign of line @n's change as printed, as the text view's
   * cg_append_change_human takes it: 0 where it reads zero ("+0.00?"
   * where sampled, as the text marks no change; never "-0.00" for what
   * rounding left of a normalized base) */
  function changeSign(n) {
    var d = value[n] - base[n];
    return /[1-9]/.test(human(Math.abs(d), D.real || D.baseReal)) ? (d < 0 ? -1 : 1) : 0;
  }
  /* slower red, faster blue, as differential flame graphs colour them;
   * the deeper the larger the change's share of the whole */
  function changeCell(n, cell) {
    var d = base[n] === null ? value[n] : noise && noise[n] || changeSign(n) === 0 ? 0 : value[n] - base[n];
    cell.classList.add(base[n] === null ? 'new' : d > 0 ? 'up' : d < 0 ? 'down' : 'same');
    var a = 0.6 * Math.sqrt(Math.min(Math.abs(pct(d)), 100) / 100);
    if (d !== 0) cell.style.background = d > 0 ? 'rgba(220,40,40,' + a.toFixed(3) + ')' : 'rgba(40,90,220,' + a.toFixed(3) + ')';
    cell.title = base[n] === null ? 'the base has no such call'
                                  : 'base ' + human(base[n], D.real || D.baseReal) + ' ' + D.unit
                                    + (noise && noise[n] ? ': within the sampling noise, no sure change' : '');
  }

  function makeRow(n) {
    var row = document.createElement('div'), p = pct(value[n]), f = fn[n];
    var members = chain(n), e = members[members.length - 1], m = isMaster(e);
    members.forEach(function (k) { headOf[k] = n; rowOf[k] = row; });
    tailOf[n] = e;
    row.className = 'row' + (m ? ' master' : ' link');
    row.members = members;
    row.classList.toggle('hit', isHit(row));
    row.setAttribute('role', 'treeitem');
    row.setAttribute('aria-level', depth[n] + 1);
    row.tabIndex = -1;
    row.dataset.i = n;
    function span(cls, text) {
      var s = document.createElement('span');
      s.className = cls;
      s.textContent = text;
      row.appendChild(s);
      return s;
    }
    span('num pct', (estimated[n] ? '~' : '') + fixed(p, 2) + '%');
    /* a joined row's self cost is its functions' together, as in text */
    var selfSum = 0, anySelf = false;
    members.forEach(function (k) { if (showsSelf(k)) { anySelf = true; selfSum += D.self[fn[k]]; } });
    span('num self', anySelf ? fixed(pct(selfSum), 2) + '%' : '');
    span('num abs', human(value[n], D.real));
    span('num absself', anySelf ? human(selfSum, D.realSelf) : '');
    span('num calls', callsText(n));
    if (base) changeCell(n, span('num chg', changeText(n)));
    var bar = span('bar', ''), fill = document.createElement('i');
    fill.style.width = Math.min(p, 100) + '%';
    fill.style.background = heat(p);
    bar.appendChild(fill);
    var t = document.createElement('span');
    t.className = 'tree';
    t.style.paddingLeft = Math.min(depth[n], 64) * 1.2 + 'em';
    row.appendChild(t);
    if (depth[n] > 64) {
      var deep = document.createElement('span');
      deep.className = 'deep';
      deep.textContent = '(+' + (depth[n] - 64) + ')';
      t.appendChild(deep);
    }
    var tw = document.createElement('span');
    tw.className = 'tw';
    t.appendChild(tw);
    members.forEach(function (k, idx) {
      var g = fn[k];
      if (idx > 0) {
        var sep = document.createElement('span');
        sep.className = 'sep';
        sep.textContent = D.inverted ? ' < ' : ' > ';
        t.appendChild(sep);
      }
      /* a joined row's ends stay whole (to 40 characters) and the names
       * between give way first, as the text view cuts a chain in its
       * middle */
      var mid = idx > 0 && idx < members.length - 1;
      var name = document.createElement('span');
      name.className = 'name' + (members.length > 1 ? (mid ? ' mid' : ' end') : '');
      name.textContent = names[g];
      name.title = names[g];
      t.appendChild(name);
      if (cycle[g]) {
        var c = document.createElement('span');
        c.className = 'cyc' + (mid ? ' mid' : '');
        c.textContent = '<cycle ' + cycle[g] + '>';
        t.appendChild(c);
      }
      var allText = k in inAll ? inAllText(k) : '';
      if (allText) {
        var all = document.createElement('span');
        all.className = 'all' + (mid ? ' mid' : '');
        all.textContent = allText;
        all.title = names[g] + ' costs ' + human(inAll[k], D.real) + ' ' + D.unit +
          ' in all, which holds its self cost and the calls below';
        t.appendChild(all);
      }
    });
    if (members.length > 1) row.classList.add('chain');
    if (!m) {
      var a = document.createElement('a');
      a.className = 'jump';
      a.href = '#';
      a.dataset.n = e;
      a.textContent = D.inverted ? '\u2192 callers' : '\u2192 callees';
      a.title = 'go to the place where ' + names[fn[e]] + (D.inverted ? "'s callers" : "'s callees") + ' are shown';
      t.appendChild(a);
    }
    updateTwisty(n);
    return row;
  }

  /* a node opens where a child of it is shown at the threshold: a twisty
   * on one whose children all lie below it opened onto nothing */
  function expandable(n) {
    for (var c = n + 1, k = 0; k < nkids[n]; k++, c += size[c]) if (shown(c)) return true;
    return false;
  }

  function updateTwisty(n) {
    var row = rowOf[n];
    if (!row) return;
    n = +row.dataset.i;
    var e = tailOf[n], tw = row.querySelector('.tw');
    if (expandable(e)) {
      tw.textContent = open[e] ? '\u25be' : '\u25b8';
      row.setAttribute('aria-expanded', open[e] ? 'true' : 'false');
    } else {
      tw.textContent = isMaster(e) ? '\u00b7' : '\u21aa';
    }
  }

  /* Appends to @frag the rows of @n's shown descendants, depth first. */
  function appendDescendants(n, frag) {
    var work = [n];
    while (work.length) {
      var m = work.pop();
      if (m !== n) frag.appendChild(makeRow(m));
      var e = tailOf[m];
      if (!open[e]) continue;
      var kids = [];
      for (var c = e + 1, k = 0; k < nkids[e]; k++, c += size[c]) if (shown(c)) kids.push(c);
      for (k = kids.length - 1; k >= 0; k--) work.push(kids[k]);
    }
  }

  function render() {
    var frag = document.createDocumentFragment();
    rowOf = new Array(N);
    headOf.fill(-1);
    for (var r = 0; r < N; r += size[r]) {
      if (!shown(r)) continue;
      frag.appendChild(makeRow(r));
      appendDescendants(r, frag);
    }
    tree.textContent = '';
    tree.appendChild(frag);
    if (selected >= 0 && rowOf[selected]) select(selected, false);
  }

  function removeDescendantRows(n) {
    var row = rowOf[n];
    while (row.nextSibling && depth[+row.nextSibling.dataset.i] > depth[n]) {
      rowOf[+row.nextSibling.dataset.i] = undefined;
      tree.removeChild(row.nextSibling);
    }
  }

  function setOpen(n, state) {
    if (rowOf[n]) n = +rowOf[n].dataset.i;
    var e = tailOf[n];
    if (!expandable(e) || !!open[e] === state) return;
    open[e] = state ? 1 : 0;
    var row = rowOf[n];
    if (row) {
      removeDescendantRows(n);
      if (state) {
        var frag = document.createDocumentFragment();
        appendDescendants(n, frag);
        row.parentNode.insertBefore(frag, row.nextSibling);
      }
      updateTwisty(n);
    }
  }

  function select(n, focus) {
    if (rowOf[n]) n = +rowOf[n].dataset.i;
    if (selected >= 0 && rowOf[selected]) {
      rowOf[selected].classList.remove('sel');
      rowOf[selected].tabIndex = -1;
      rowOf[selected].removeAttribute('aria-selected');
    }
    selected = n;
    var row = rowOf[n];
    if (!row) return;
    row.classList.add('sel');
    row.tabIndex = 0;
    row.setAttribute('aria-selected', 'true');
    /* the address names the line: copied, it opens the page there */
    if (location.hash !== '#selftest' && window.history.replaceState) window.history.replaceState(null, '', fragmentOf(n));
    if (focus) {
      row.focus({ preventScroll: true });
      var r = row.getBoundingClientRect(), top = document.querySelector('header').getBoundingClientRect().bottom;
      if (r.top < top || r.bottom > window.innerHeight) row.scrollIntoView({ block: 'center' });
    }
  }

  /* Shows @n whatever the threshold: its ancestors open, all pinned. */
  function reveal(n) {
    var changed = false;
    for (var a = n; a >= 0; a = parent[a]) {
      if (!pinned[a]) { pinned[a] = 1; changed = true; }
      if (a !== n && !open[a]) { open[a] = 1; changed = true; }
    }
    if (changed || !rowOf[n]) render();
    select(n, true);
  }

  function jumpToMaster(n) {
    var m = master[fn[n]];
    if (m === undefined || m < 0) return;
    history.push(n);
    reveal(m);
  }

  /* ---- events ---- */

  tree.addEventListener('click', function (e) {
    var row = e.target.closest('.row');
    if (!row) return;
    var n = +row.dataset.i;
    if (e.target.closest('a.jump')) {
      e.preventDefault();
      jumpToMaster(+e.target.closest('a.jump').dataset.n);
      return;
    }
    select(n, true);
    if (e.target.closest('.tw')) setOpen(n, !open[n]);
  });
  tree.addEventListener('dblclick', function (e) {
    var row = e.target.closest('.row');
    if (row) setOpen(+row.dataset.i, !open[+row.dataset.i]);
  });

  function neighbour(n, forward) {
    var row = rowOf[n];
    var next = row && (forward ? row.nextSibling : row.previousSibling);
    return next ? +next.dataset.i : -1;
  }

  tree.addEventListener('keydown', function (e) {
    if (selected < 0 || !rowOf[selected]) {
      if (tree.firstChild) select(+tree.firstChild.dataset.i, true);
      return;
    }
    var n = selected, to = -1;
    switch (e.key) {
      case 'ArrowDown': to = neighbour(n, true); break;
      case 'ArrowUp': to = neighbour(n, false); break;
      case 'ArrowRight':
        if (expandable(tailOf[n]) && !open[tailOf[n]]) setOpen(n, true);
        else if (open[tailOf[n]]) to = neighbour(n, true);
        break;
      case 'ArrowLeft':
        if (open[tailOf[n]] && expandable(tailOf[n])) setOpen(n, false);
        else if (parent[n] >= 0 && rowOf[parent[n]]) to = parent[n];
        break;
      case 'Enter':
        if (!isMaster(tailOf[n])) jumpToMaster(tailOf[n]); else setOpen(n, !open[tailOf[n]]);
        break;
      case 'Backspace':
        if (history.length) reveal(history.pop());
        break;
      case 'Home': to = +tree.firstChild.dataset.i; break;
      case 'End': to = +tree.lastChild.dataset.i; break;
      case '*':
        for (var c = n + 1, k = 0; k < nkids[n]; k++, c += size[c]) setOpen(c, true);
        setOpen(n, true);
        break;
      default: return;
    }
    e.preventDefault();
    if (to >= 0) select(to, true);
  });

  document.addEventListener('keydown', function (e) {
    if (e.target === search) {
      if (e.key === 'Enter') { e.preventDefault(); nextHit(e.shiftKey ? -1 : 1); }
      else if (e.key === 'Escape') { search.blur(); if (selected >= 0) select(selected, true); else tree.focus(); }
      return;
    }
    if (e.key === '/') { e.preventDefault(); search.focus(); search.select(); }
    else if (e.key === 'n' || e.key === 'N') { e.preventDefault(); nextHit(e.key === 'n' ? 1 : -1); }
  });

  /* the slider: 0 shows everything, then 0.01 % to 100 % on a log scale */
  function sliderToPercent(s) { return s <= 0 ? 0 : Math.pow(10, (s - 50) / 25); }
  function percentToSlider(p) { return p <= 0 ? 0 : Math.max(1, Math.min(100, Math.round(50 + 25 * Math.log10(p)))); }
  function setThreshold(p) {
    threshold = Math.max(p, D.threshold);
    sliderOut.value = threshold === 0 ? 'all' : '\u2265 ' + (threshold < 0.1 ? threshold.toFixed(3) :
                                                            threshold < 1 ? threshold.toFixed(2) : threshold.toFixed(1)) + '%';
  }
  slider.addEventListener('input', function () { setThreshold(sliderToPercent(+slider.value)); render(); });

  /* Whether a function of @row matches the search. */
  function isHit(row) {
    return !!hitFunctions && row.members.some(function (k) { return hitFunctions[fn[k]]; });
  }
  function updateHits() {
    var q = search.value.trim().toLowerCase();
    hitFunctions = null; hits = []; hitAt = -1;
    if (q) {
      hitFunctions = new Uint8Array(names.length);
      for (var f = 0; f < names.length; f++) {
        if (names[f].toLowerCase().indexOf(q) >= 0 && master[f] >= 0) { hitFunctions[f] = 1; hits.push(master[f]); }
      }
      hits.sort(function (a, b) { return a - b; });
    }
    hitsOut.textContent = q ? hits.length + ' function' + (hits.length === 1 ? '' : 's') : '';
    for (var k = tree.firstChild; k; k = k.nextSibling) {
      k.classList.toggle('hit', isHit(k));
    }
  }
  function nextHit(step) {
    if (!hits.length) return;
    hitAt = (hitAt + step + hits.length) % hits.length;
    hitsOut.textContent = (hitAt + 1) + ' of ' + hits.length;
    reveal(hits[hitAt]);
  }
  search.addEventListener('input', updateHits);
  document.getElementById('next').addEventListener('click', function () { nextHit(1); });
  document.getElementById('prev').addEventListener('click', function () { nextHit(-1); });
  document.getElementById('collapse').addEventListener('click', function () {
    open.fill(0); pinned.fill(0); render();
  });

  /* ---- links to a line: #callees/N or #callers/N ---- */

  function fragmentOf(n) { return '#' + (D.inverted ? 'callers' : 'callees') + '/' + n; }
  /* Shows the line @hash names, in its direction; FALSE when it names none. */
  function openFragment(hash) {
    var m = /^#(callers|callees)\/([0-9]+)$/.exec(hash);
    if (!m) return false;
    for (var k = 0; k < docs.length; k++) {
      if (!!docs[k].inverted !== (m[1] === 'callers') || +m[2] >= docs[k].nodes.length / 4) continue;
      if (k !== current) { load(k); start(); }
      reveal(+m[2]);
      return true;
    }
    return false;
  }

  /* ---- the other direction ---- */

  var dirButton = document.getElementById('dir');
  function labelDirection() {
    document.querySelector('h1').firstChild.textContent = D.inverted ? 'Callers tree ' : 'Display tree ';
    if (dirButton) dirButton.textContent = D.inverted ? 'Show callees' : 'Show callers';
  }
  if (dirButton) {
    if (docs.length < 2) dirButton.hidden = true;
    dirButton.addEventListener('click', function () { load(1 - current); start(); });
  }

  /* ---- start: the hot paths open ---- */

  function start() {
    /* never above every root: a flat profile's callers tree, whose
     * hottest function has less self cost than the slider's start,
     * opened empty */
    var top = 0;
    for (var r = 0; r < N; r++) if (parent[r] < 0) top = Math.max(top, pct(value[r]));
    setThreshold(Math.min(D.slider, top));
    slider.value = percentToSlider(threshold);
    for (var i = 0; i < N; i++) if (pct(value[i]) >= 10 && isMaster(i) && expandable(i)) open[i] = 1;
    if (N > 0) open[0] = 1;
    render();
    if (tree.firstChild) select(+tree.firstChild.dataset.i, false);
    labelDirection();
    updateHits();
  }
  start();
  if (location.hash !== '#selftest') openFragment(location.hash);

  /* ---- a self-test for the test suite: page.html#selftest ---- */

  function selftest() {
    var log = [], ok = true;
    function check(c, what) { ok = ok && !!c; log.push((c ? 'ok ' : 'FAIL ') + what); }
    function inView(row) {
      var r = row.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    }
    /* the node whose row shows @k (the head of a joined row) */
    function rowNode(k) { return rowOf[k] ? +rowOf[k].dataset.i : -1; }
    function key(target, k) {
      target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
    }
    check(errors.length === 0, 'loads without errors ' + errors.join('; '));
    check(tree.children.length > 0, 'shows rows (' + tree.children.length + ')');
    /* chains fold as in the text view, at the page's first threshold: a
     * joined row names its nodes, and opening it shows its last one's
     * children */
    var folded = tree.querySelector('.row.chain');
    if (threshold > 0 && !D.noFold && folded) {
      var h = +folded.dataset.i, members = chain(h), last = members[members.length - 1];
      var named = folded.querySelectorAll('.name').length;
      check(named === members.length && members.every(function (k, x) { return x === 0 || parent[k] === members[x - 1]; }),
            'row ' + h + ' joins the chain ' + members.map(function (k) { return names[fn[k]]; }).join(' > '));
      if (expandable(last)) {
        setOpen(h, false); setOpen(h, true);
        var under = folded.nextSibling ? +folded.nextSibling.dataset.i : -1;
        check(open[last] && under >= 0 && parent[under] === last, 'opening a joined row shows its last node\'s children');
      }
    } else {
      log.push('ok no chain to fold at ' + threshold + '%');
    }
    /* no joined row shows a total in all below its cost, as the text view */
    var below = [];
    tree.querySelectorAll('.row.chain').forEach(function (row) {
      var h = +row.dataset.i;
      chain(h).forEach(function (k) { if (k in inAll && inAll[k] <= value[h]) below.push(names[fn[k]]); });
    });
    check(below.length === 0, 'no joined row shows a total below its cost' +
          (below.length ? ': ' + below.slice(0, 3).join(', ') : ''));
    /* a joined row keeps its first and last names readable (at least 12
     * characters, or all of a shorter one), as the text view cuts a chain
     * in the middle: the names between give way first */
    var probe = document.createElement('span');
    probe.className = 'name';
    probe.textContent = '000000000000';
    tree.appendChild(probe);
    var twelve = probe.getBoundingClientRect().width;
    tree.removeChild(probe);
    var squeezed = [];
    tree.querySelectorAll('.row.chain').forEach(function (row) {
      var ns = row.querySelectorAll('.name');
      [ns[0], ns[ns.length - 1]].forEach(function (el) {
        if (el.getBoundingClientRect().width + 1 < Math.min(el.scrollWidth, twelve)) squeezed.push(el.textContent);
      });
    });
    check(squeezed.length === 0, 'the ends of joined rows are readable' +
          (squeezed.length ? ': not ' + squeezed.slice(0, 3).join(', ') : ''));
    /* the self column in the event's unit, beside the percentage */
    var mr = -1;
    for (var q2 = tree.firstChild; q2 && mr < 0; q2 = q2.nextSibling) {
      var c2 = +q2.dataset.i;
      if (chain(c2).length === 1 && showsSelf(c2) && D.self[fn[c2]] > 0) mr = c2;
    }
    if (mr >= 0) {
      check(rowOf[mr].querySelector('.absself').textContent === human(D.self[fn[mr]], D.realSelf) &&
            document.querySelector('.cols .absself').textContent === 'self ' + D.unit,
            'the self column shows ' + names[fn[mr]] + '\'s ' + human(D.self[fn[mr]], D.realSelf) + ' ' + D.unit);
    }
    /* a self-recursive function's calls read N+M on its master line */
    for (var r2 = 0; r2 < N; r2++) {
      if (!D.inverted && isMaster(r2) && calls[r2] && selfCalls[fn[r2]]) {
        check(callsText(r2) === intFormat.format(calls[r2]) + '+' + intFormat.format(selfCalls[fn[r2]]) + '\u00d7',
              names[fn[r2]] + '\'s calls read ' + callsText(r2));
        break;
      }
    }
    /* --base: the change column, coloured by its sign, and the changes
     * of every line for the test to hold against cgcost --base's tsv */
    if (base) {
      var cr = tree.firstChild, cn = +cr.dataset.i, cell = cr.querySelector('.chg');
      var cd = base[cn] === null ? null : noise && noise[cn] ? 0 : changeSign(cn);
      check(document.body.classList.contains('diff') && cell && cell.textContent === changeText(cn) &&
            cell.classList.contains(cd === null ? 'new' : cd > 0 ? 'up' : cd < 0 ? 'down' : 'same') &&
            getComputedStyle(document.querySelector('.cols .chg')).display !== 'none',
            'the change column shows ' + names[fn[cn]] + '\'s ' + changeText(cn));
      for (var ci = 0; ci < N && ci < 500; ci++) log.push('change ' + names[fn[ci]] + ' ' + changeText(ci));
      /* and what a row shows, for the test to hold against the text */
      for (ci = 0; ci < N && ci < 500; ci++)
        if (rowOf[ci]) log.push('row ' + names[fn[ci]] + ' ' + rowOf[ci].querySelector('.pct').textContent + ' ' +
                                rowOf[ci].querySelector('.abs').textContent + ' ' + rowOf[ci].querySelector('.chg').textContent);
    }
    /* everything, through the slider as a user moves it */
    slider.value = 0;
    slider.dispatchEvent(new Event('input'));
    check(threshold === D.threshold, 'the slider sets the threshold');
    /* expanding by a click on the twisty shows the children */
    var n = -1;
    for (var k = tree.firstChild; k && n < 0; k = k.nextSibling) {
      var m = +k.dataset.i;
      if (expandable(tailOf[m]) && !open[tailOf[m]]) n = m;
    }
    /* none closed: close an open one */
    for (k = tree.firstChild; k && n < 0; k = k.nextSibling) {
      m = +k.dataset.i;
      if (expandable(tailOf[m])) { n = m; setOpen(n, false); }
    }
    if (n >= 0) {
      var before = tree.children.length, expect = 0, tn = tailOf[n];
      for (var c = tn + 1, q = 0; q < nkids[tn]; q++, c += size[c]) expect += shown(c);
      rowOf[n].querySelector('.tw').click();
      var kids = 0;
      for (k = rowOf[n].nextSibling; k && depth[+k.dataset.i] > depth[n]; k = k.nextSibling) kids += parent[+k.dataset.i] === tn;
      check(open[tn] && kids === expect && kids > 0 && tree.children.length >= before + kids,
            'a click expands node ' + n + ' (' + names[fn[n]] + ') to its ' + kids + ' children');
      /* the keyboard: down moves to the first child, left closes it and
       * goes back up, left again collapses */
      select(n, true);
      var first = +rowOf[n].nextSibling.dataset.i;
      key(rowOf[n], 'ArrowDown');
      check(selected === first && parent[first] === tn, 'ArrowDown selects the first child');
      if (open[tailOf[first]] && expandable(tailOf[first])) key(rowOf[first], 'ArrowLeft');
      key(rowOf[first], 'ArrowLeft');
      check(selected === n && document.activeElement === rowOf[n], 'ArrowLeft goes back to the parent');
      key(rowOf[n], 'ArrowLeft');
      check(!open[tn] && !rowOf[first], 'ArrowLeft collapses');
    } else {
      log.push('ok no row to open at ' + threshold + '%');
    }
    /* a link jumps to its master: prefer one whose master is off screen */
    var link = -1;
    for (m = 0; m < N; m++) {
      if (!isMaster(m) && master[fn[m]] >= 0) {
        if (link < 0) link = m;
        if (!rowOf[master[fn[m]]]) { link = m; break; }
      }
    }
    if (link >= 0) {
      reveal(link);
      var target = master[fn[link]];
      rowOf[link].querySelector('a.jump').click();
      check(rowOf[target] && selected === rowNode(target) && document.activeElement === rowOf[target] &&
            inView(rowOf[target]),
            'the link at node ' + link + ' (' + names[fn[link]] + ') jumps to its master node ' + target);
      key(rowOf[target], 'Backspace');
      check(selected === rowNode(link), 'Backspace returns to the link');
    } else {
      log.push('ok no link in this tree');
    }
    /* search finds a function and shows its master */
    search.value = names[fn[N - 1]];
    search.dispatchEvent(new Event('input'));
    key(search, 'Enter');
    check(hits.length > 0 && selected === rowNode(hits[0]) && rowOf[selected].classList.contains('hit'),
          'search reveals the first of ' + hits.length + ' matches');
    /* a link to a line: its fragment opens the page there */
    var deep = -1;
    for (m = N - 1; m >= 0 && deep < 0; m--) if (depth[m] >= 2) deep = m;
    if (deep >= 0) {
      var frag = fragmentOf(deep);
      open.fill(0); pinned.fill(0); render();
      check(/^#(callers|callees)\/[0-9]+$/.test(frag) && openFragment(frag) && rowOf[deep] &&
            selected === +rowOf[deep].dataset.i && inView(rowOf[deep]),
            'the link ' + frag + ' opens the page at ' + names[fn[deep]]);
    }
    /* the other direction: the toggle shows the callers (or callees) */
    if (docs.length > 1) {
      var was = !!D.inverted;
      dirButton.click();
      check(!!D.inverted === !was && tree.children.length > 0 &&
            document.querySelector('h1').firstChild.textContent === (D.inverted ? 'Callers tree ' : 'Display tree '),
            'the toggle shows the ' + (D.inverted ? 'callers' : 'callees') + ' tree (' + tree.children.length + ' rows)');
      if (deep >= 0) {
        var back = openFragment((was ? '#callers/' : '#callees/') + deep);
        check(back && !!D.inverted === was && rowOf[deep] &&
              document.body.classList.contains('diff') === !!D.base,
              'a link to the first direction goes back to it');
      }
    } else {
      log.push('ok one direction only');
    }
    /* a total "in all" never prints as its line's incl does (fd4cc9b's
     * rule of the text view): as a cost where the percentages print
     * alike, nowhere where the costs do too */
    var alike = [], marked = 0;
    tree.querySelectorAll('.row:not(.chain)').forEach(function (row) {
      var mark = row.querySelector('.all'), p = row.querySelector('.pct').textContent.replace(/^~/, '');
      marked += mark ? 1 : 0;
      if (mark && (mark.textContent === '(' + p + ' in all)' ||
                   mark.textContent === '(' + row.querySelector('.abs').textContent + ' ' + D.unit + ' in all)'))
        alike.push(mark.textContent);
    });
    check(alike.length === 0, 'no total in all prints as its line\'s incl (' + marked + ' shown)' +
          (alike.length ? ': ' + alike.slice(0, 3).join(', ') : ''));
    check(errors.length === 0, 'no errors ' + errors.join('; '));
    var out = document.getElementById('selftest');
    out.textContent = (ok ? 'selftest: ok' : 'selftest: FAIL') + '\n' + log.join('\n') + '\n';
  }
  if (location.hash === '#selftest') selftest();
})();
