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

  var D = JSON.parse(document.getElementById('cg-data').textContent);
  var nodes = D.nodes, N = nodes.length / 4;
  var fn = new Int32Array(N), value = new Float64Array(N), calls = new Float64Array(N);
  var nkids = new Int32Array(N), parent = new Int32Array(N), depth = new Int32Array(N);
  var open = new Uint8Array(N), pinned = new Uint8Array(N), estimated = new Uint8Array(N);
  var rowOf = new Array(N);
  var i, j;
  for (i = 0; i < N; i++) {
    fn[i] = nodes[4 * i]; value[i] = nodes[4 * i + 1]; calls[i] = nodes[4 * i + 2]; nkids[i] = nodes[4 * i + 3];
  }
  (D.estimated || []).forEach(function (n) { estimated[n] = 1; });
  /* a master node's function's total where it exceeds its call's */
  var inAll = {}, ia = D.inAll || [];
  for (i = 0; i + 1 < ia.length; i += 2) inAll[ia[i]] = ia[i + 1];
  /* parents and depths from the depth-first order and child counts */
  var stack = [], left = [];
  for (i = 0; i < N; i++) {
    while (stack.length && left[left.length - 1] === 0) { stack.pop(); left.pop(); }
    parent[i] = stack.length ? stack[stack.length - 1] : -1;
    depth[i] = stack.length;
    if (stack.length) left[left.length - 1]--;
    if (nkids[i] > 0) { stack.push(i); left.push(nkids[i]); }
  }
  /* next sibling = i + subtree size */
  var size = new Int32Array(N).fill(1);
  for (i = N - 1; i >= 0; i--) if (parent[i] >= 0) size[parent[i]] += size[i];
  var master = D.master, names = D.names, cycle = D.cycle || [];

  var tree = document.getElementById('tree');
  var slider = document.getElementById('th'), sliderOut = document.getElementById('thv');
  var search = document.getElementById('q'), hitsOut = document.getElementById('hits');
  var threshold = D.threshold, selected = -1, history = [];
  var hitFunctions = null, hits = [], hitAt = -1;

  var intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  var realFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  function human(v, real) { return (real ? realFormat : intFormat).format(v * D.scale); }
  function pct(v) { return D.all > 0 ? 100 * v / D.all : 0; }
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

  function makeRow(n) {
    var row = document.createElement('div'), p = pct(value[n]), m = isMaster(n), f = fn[n];
    row.className = 'row' + (m ? ' master' : ' link') + (hitFunctions && hitFunctions[f] ? ' hit' : '');
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
    span('num pct', (estimated[n] ? '~' : '') + p.toFixed(2) + '%');
    span('num self', showsSelf(n) ? pct(D.self[f]).toFixed(2) + '%' : '');
    span('num abs', human(value[n], D.real)).title = 'self: ' + human(D.self[f], D.realSelf) + ' ' + D.unit;
    span('num calls', calls[n] ? intFormat.format(calls[n]) + '\u00d7' : '');
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
    var name = document.createElement('span');
    name.className = 'name';
    name.textContent = names[f];
    name.title = names[f];
    t.appendChild(name);
    if (cycle[f]) {
      var c = document.createElement('span');
      c.className = 'cyc';
      c.textContent = '<cycle ' + cycle[f] + '>';
      t.appendChild(c);
    }
    if (n in inAll) {
      var all = document.createElement('span');
      all.className = 'all';
      all.textContent = '(' + pct(inAll[n]).toFixed(2) + '% in all)';
      all.title = names[f] + ' costs ' + human(inAll[n], D.real) + ' ' + D.unit +
        ' in all, which holds its self cost and the calls below';
      t.appendChild(all);
    }
    if (!m) {
      var a = document.createElement('a');
      a.className = 'jump';
      a.href = '#';
      a.textContent = D.inverted ? '\u2192 callers' : '\u2192 callees';
      a.title = 'go to the place where ' + names[f] + (D.inverted ? "'s callers" : "'s callees") + ' are shown';
      t.appendChild(a);
    }
    rowOf[n] = row;
    updateTwisty(n);
    return row;
  }

  function expandable(n) { return nkids[n] > 0; }

  function updateTwisty(n) {
    var row = rowOf[n];
    if (!row) return;
    var tw = row.querySelector('.tw');
    if (expandable(n)) {
      tw.textContent = open[n] ? '\u25be' : '\u25b8';
      row.setAttribute('aria-expanded', open[n] ? 'true' : 'false');
    } else {
      tw.textContent = isMaster(n) ? '\u00b7' : '\u21aa';
    }
  }

  /* Appends to @frag the rows of @n's shown descendants, depth first. */
  function appendDescendants(n, frag) {
    var work = [n];
    while (work.length) {
      var m = work.pop();
      if (m !== n) frag.appendChild(makeRow(m));
      if (!open[m]) continue;
      var kids = [];
      for (var c = m + 1, k = 0; k < nkids[m]; k++, c += size[c]) if (shown(c)) kids.push(c);
      for (k = kids.length - 1; k >= 0; k--) work.push(kids[k]);
    }
  }

  function render() {
    var frag = document.createDocumentFragment();
    rowOf = new Array(N);
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
    if (!expandable(n) || !!open[n] === state) return;
    open[n] = state ? 1 : 0;
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
      jumpToMaster(n);
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
        if (expandable(n) && !open[n]) setOpen(n, true);
        else if (open[n]) to = neighbour(n, true);
        break;
      case 'ArrowLeft':
        if (open[n] && expandable(n)) setOpen(n, false);
        else if (parent[n] >= 0 && rowOf[parent[n]]) to = parent[n];
        break;
      case 'Enter':
        if (!isMaster(n)) jumpToMaster(n); else setOpen(n, !open[n]);
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
      k.classList.toggle('hit', !!(hitFunctions && hitFunctions[fn[+k.dataset.i]]));
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

  /* ---- start: the hot paths open ---- */

  setThreshold(D.slider);
  slider.value = percentToSlider(threshold);
  for (i = 0; i < N; i++) if (pct(value[i]) >= 10 && isMaster(i) && expandable(i)) open[i] = 1;
  if (N > 0) open[0] = 1;
  render();
  if (tree.firstChild) select(+tree.firstChild.dataset.i, false);

  /* ---- a self-test for the test suite: page.html#selftest ---- */

  function selftest() {
    var log = [], ok = true;
    function check(c, what) { ok = ok && !!c; log.push((c ? 'ok ' : 'FAIL ') + what); }
    function inView(row) {
      var r = row.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    }
    function key(target, k) {
      target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
    }
    check(errors.length === 0, 'loads without errors ' + errors.join('; '));
    check(tree.children.length > 0, 'shows rows (' + tree.children.length + ')');
    /* everything, through the slider as a user moves it */
    slider.value = 0;
    slider.dispatchEvent(new Event('input'));
    check(threshold === D.threshold, 'the slider sets the threshold');
    /* expanding by a click on the twisty shows the children */
    var n = -1;
    for (var k = tree.firstChild; k && n < 0; k = k.nextSibling) {
      var m = +k.dataset.i;
      if (expandable(m) && !open[m]) n = m;
    }
    if (n < 0 && tree.firstChild) { n = +tree.firstChild.dataset.i; setOpen(n, false); }
    var before = tree.children.length, expect = 0;
    for (var c = n + 1, q = 0; q < nkids[n]; q++, c += size[c]) expect += shown(c);
    rowOf[n].querySelector('.tw').click();
    var kids = 0;
    for (k = rowOf[n].nextSibling; k && depth[+k.dataset.i] > depth[n]; k = k.nextSibling) kids += parent[+k.dataset.i] === n;
    check(open[n] && kids === expect && kids > 0 && tree.children.length >= before + kids,
          'a click expands node ' + n + ' (' + names[fn[n]] + ') to its ' + kids + ' children');
    /* the keyboard: down moves to the first child, left closes it and
     * goes back up, left again collapses */
    select(n, true);
    var first = +rowOf[n].nextSibling.dataset.i;
    key(rowOf[n], 'ArrowDown');
    check(selected === first && parent[first] === n, 'ArrowDown selects the first child');
    if (open[first] && expandable(first)) key(rowOf[first], 'ArrowLeft');
    key(rowOf[first], 'ArrowLeft');
    check(selected === n && document.activeElement === rowOf[n], 'ArrowLeft goes back to the parent');
    key(rowOf[n], 'ArrowLeft');
    check(!open[n] && !rowOf[first], 'ArrowLeft collapses');
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
      check(rowOf[target] && selected === target && document.activeElement === rowOf[target] && inView(rowOf[target]),
            'the link at node ' + link + ' (' + names[fn[link]] + ') jumps to its master node ' + target);
      key(rowOf[target], 'Backspace');
      check(selected === link, 'Backspace returns to the link');
    } else {
      log.push('ok no link in this tree');
    }
    /* search finds a function and shows its master */
    search.value = names[fn[N - 1]];
    search.dispatchEvent(new Event('input'));
    key(search, 'Enter');
    check(hits.length > 0 && selected === hits[0] && rowOf[selected].classList.contains('hit'),
          'search reveals the first of ' + hits.length + ' matches');
    check(errors.length === 0, 'no errors ' + errors.join('; '));
    var out = document.getElementById('selftest');
    out.textContent = (ok ? 'selftest: ok' : 'selftest: FAIL') + '\n' + log.join('\n') + '\n';
  }
  if (location.hash === '#selftest') selftest();
})();
