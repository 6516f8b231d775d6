/* cgflame.svg.js — zoom, reset and search in cgtree's flame graph (see
 * cgtree(1)).  The graph reads the same without it.  The boxes are the
 * <g class="f"> of #frames in depth-first order, "all" first; a box's
 * level comes from its y (cgLayout), its label from its tooltip's first
 * line, its share of the profile from cgShare. */
var cgBoxes = [], cgZoomed = -1, cgButtons = {};

function cgInit (evt) {
  var frames = document.getElementById ('frames');
  var gs = frames.getElementsByTagName ('g');
  var stack = [];
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], rect = g.getElementsByTagName ('rect')[0], text = g.getElementsByTagName ('text')[0];
    var title = g.getElementsByTagName ('title')[0].textContent;
    var y = parseFloat (rect.getAttribute ('y'));
    var b = { g: g, rect: rect, text: text, x: parseFloat (rect.getAttribute ('x')),
              w: parseFloat (rect.getAttribute ('width')),
              level: Math.round ((cgLayout.bottom - y) / cgLayout.row) - 1,
              name: title.split ('\n')[0], label: text ? text.textContent : '',
              estimated: /(^| )est( |$)/.test (g.getAttribute ('class')),
              share: i > 0 ? cgShare[i - 1] : 100, parent: -1, end: gs.length };
    while (stack.length && cgBoxes[stack[stack.length - 1]].level >= b.level)
      cgBoxes[stack.pop ()].end = i;
    if (stack.length) b.parent = stack[stack.length - 1];
    stack.push (i);
    cgBoxes.push (b);
    g.setAttribute ('data-i', i);
  }
  frames.addEventListener ('click', function (e) {
    var n = e.target;
    while (n && n !== frames && !n.getAttribute ('data-i')) n = n.parentNode;
    if (n && n !== frames) cgZoom (parseInt (n.getAttribute ('data-i'), 10));
  });
  var right = cgLayout.left + cgLayout.width;
  cgButtons.search = cgButton ('Search', right, 20, cgSearch);
  cgButtons.reset = cgButton ('Reset zoom', right - 90, 20, function () { cgZoom (0); });
  cgButtons.reset.style.display = 'none';
  cgHint ('Click a box to zoom to it; Search (top right) highlights names and sums their share.');
  if (location.hash === '#selftest') cgSelftest ();
}

function cgButton (words, x, y, action) {
  var t = document.createElementNS ('http://www.w3.org/2000/svg', 'text');
  t.setAttribute ('x', x); t.setAttribute ('y', y);
  t.setAttribute ('text-anchor', 'end'); t.setAttribute ('class', 'button');
  t.textContent = words;
  t.addEventListener ('click', action);
  document.documentElement.appendChild (t);
  return t;
}

function cgHint (words) {
  document.getElementById ('hint').textContent = words;
}

/* The label of @b in @w pixels: its name cut at the end. */
function cgLabel (b, w) {
  var room = Math.floor ((w - 4) / cgLayout.charWidth) - (b.estimated ? 1 : 0);
  if (room < 1 || (room < b.name.length && room < 5)) return '';
  var name = b.name.length <= room ? b.name : b.name.substr (0, room - 1) + '\u2026';
  return (b.estimated ? '~' : '') + name;
}

function cgPlace (b, x, w, klass) {
  b.rect.setAttribute ('x', (cgLayout.left + x).toFixed (2));
  b.rect.setAttribute ('width', w.toFixed (2));
  if (b.text) {
    b.text.setAttribute ('x', (cgLayout.left + x + 3).toFixed (2));
    b.text.textContent = klass === 'gone' ? '' : cgLabel (b, w);
  }
  var c = b.g.getAttribute ('class').replace (/ (dim|gone)/g, '');
  b.g.setAttribute ('class', klass ? c + ' ' + klass : c);
}

/* Box @i as wide as the graph, its subtree with it; its ancestors
 * dimmed across the width, the rest hidden.  @i 0 ("all") resets. */
function cgZoom (i) {
  var z = cgBoxes[i], left = z.x - cgLayout.left, scale = cgLayout.width / z.w;
  var up = {};
  for (var p = z.parent; p >= 0; p = cgBoxes[p].parent) up[p] = true;
  for (var j = 0; j < cgBoxes.length; j++) {
    var b = cgBoxes[j];
    if (i === 0) {
      /* as drawn: the labels cg_cut_name cut */
      cgPlace (b, b.x - cgLayout.left, b.w, '');
      if (b.text) b.text.textContent = b.label;
    } else if (j >= i && j < z.end)
      cgPlace (b, (b.x - cgLayout.left - left) * scale, b.w * scale, '');
    else if (up[j])
      cgPlace (b, 0, cgLayout.width, 'dim');
    else
      cgPlace (b, 0, 0, 'gone');
  }
  cgZoomed = i;
  cgButtons.reset.style.display = i > 0 ? '' : 'none';
}

function cgSearch () {
  var q = prompt ('Search names (a regular expression; empty clears)', '');
  if (q !== null) cgSearchFor (q);
}

/* Highlights the boxes whose names match @q (a regular expression; ''
 * clears) and prints how many and their summed share. */
function cgSearchFor (q) {
  var re = null;
  try { if (q !== '') re = new RegExp (q); } catch (e) { cgHint ('Not a regular expression: ' + q); return; }
  var hits = 0, sum = 0, inHit = [];
  for (var j = 0; j < cgBoxes.length; j++) {
    var b = cgBoxes[j], c = b.g.getAttribute ('class').replace (/ hit/g, '');
    var hit = j > 0 && re !== null && re.test (b.name);
    b.g.setAttribute ('class', hit ? c + ' hit' : c);
    /* a match inside a match is in its share already */
    inHit[j] = hit || (b.parent >= 0 && inHit[b.parent]);
    if (hit) { hits++; if (!(b.parent >= 0 && inHit[b.parent])) sum += b.share; }
  }
  cgHint (re === null ? '' : 'Search /' + q + '/: ' + hits + ' box' + (hits === 1 ? '' : 'es') + ', ' + sum.toFixed (2)
          + '% of the profile (a match on a match counted once)');
}

/* ---- a self-test for the test suite: graph.svg#selftest ---- */
/* Zooms to a box with children, checks where every box went, searches a
 * name and checks the sum against the tooltips, clears, resets and checks
 * that every box is back; writes "selftest: ok" (or what failed) into a
 * <text id="selftest">. */
function cgSelftest () {
  var log = [], ok = true;
  function check (what, cond) { if (!cond) { ok = false; log.push ('FAIL ' + what); } }
  function near (a, b) { return Math.abs (a - b) < 0.02; }
  function at (b) { return { x: parseFloat (b.rect.getAttribute ('x')), w: parseFloat (b.rect.getAttribute ('width')) }; }
  function has (b, k) { return (' ' + b.g.getAttribute ('class') + ' ').indexOf (' ' + k + ' ') >= 0; }
  var z = -1, i, j, b;
  for (i = 1; i < cgBoxes.length && z < 0; i++)
    if (cgBoxes[i].end > i + 1 && cgBoxes[i].level >= 2) z = i;
  for (i = 1; i < cgBoxes.length && z < 0; i++)
    if (cgBoxes[i].end > i + 1) z = i;
  if (z > 0) {
    var zb = cgBoxes[z], scale = cgLayout.width / zb.w, up = {};
    for (var p = zb.parent; p >= 0; p = cgBoxes[p].parent) up[p] = true;
    cgZoom (z);
    check ('zoomed box across the width', near (at (zb).x, cgLayout.left) && near (at (zb).w, cgLayout.width));
    check ('reset shown', cgButtons.reset.style.display !== 'none');
    for (j = 0; j < cgBoxes.length; j++) {
      b = cgBoxes[j];
      if (j >= z && j < zb.end) {
        check (b.name + ' in the zoom: scaled', near (at (b).w, b.w * scale) && !has (b, 'gone') && !has (b, 'dim'));
        check (b.name + ' in the zoom: within', at (b).x >= cgLayout.left - 0.02
               && at (b).x + at (b).w <= cgLayout.left + cgLayout.width + 0.05);
      } else if (up[j])
        check (b.name + ' below the zoom: dimmed across', has (b, 'dim') && near (at (b).w, cgLayout.width));
      else
        check (b.name + ' beside the zoom: hidden', has (b, 'gone'));
    }
    check ('zoomed label', zb.text.textContent !== '' || zb.name.length > 150);
    log.push ('zoomed to ' + zb.name + ' (' + (zb.end - z) + ' boxes)');
  }
  /* a name, and every name: a match on a match is in its share already */
  var name = cgBoxes[z > 0 ? z : 1].name;
  var queries = ['^' + name.replace (/[.*+?^${}()|[\]\\]/g, '\\$&') + '$', '.'];
  for (var k = 0; k < queries.length; k++) {
    var re = new RegExp (queries[k]), hits = 0, sum = 0, inHit = [];
    cgSearchFor (queries[k]);
    for (j = 0; j < cgBoxes.length; j++) {
      b = cgBoxes[j];
      var hit = j > 0 && re.test (b.name);
      check (b.name + ' highlighted as it matches', has (b, 'hit') === hit);
      if (hit && !(b.parent >= 0 && inHit[b.parent])) {
        var m = /\nincl: ~?([0-9.]+)%/.exec (b.g.getElementsByTagName ('title')[0].textContent);
        sum += parseFloat (m[1]);
      }
      inHit[j] = hit || (b.parent >= 0 && inHit[b.parent]);
      hits += hit ? 1 : 0;
    }
    var said = document.getElementById ('hint').textContent;
    /* the tooltips round each share to 0.01 % */
    var total = /, ([0-9.]+)% of/.exec (said);
    check ('search says ' + hits + ' boxes, ' + sum.toFixed (2) + '%: ' + said, said.indexOf (': ' + hits + ' box') > 0
           && total !== null && Math.abs (parseFloat (total[1]) - sum) <= 0.006 * (hits + 1));
    log.push (said);
  }
  cgSearchFor ('');
  for (j = 0; j < cgBoxes.length; j++) check (cgBoxes[j].name + ' not highlighted', !has (cgBoxes[j], 'hit'));
  cgZoom (0);
  for (j = 0; j < cgBoxes.length; j++) {
    b = cgBoxes[j];
    check (b.name + ' back after reset', near (at (b).x, b.x) && near (at (b).w, b.w) && !has (b, 'gone')
           && !has (b, 'dim') && (!b.text || b.text.textContent === b.label));
  }
  check ('reset hidden', cgButtons.reset.style.display === 'none');
  var out = document.createElementNS ('http://www.w3.org/2000/svg', 'text');
  out.setAttribute ('id', 'selftest');
  out.setAttribute ('x', cgLayout.left);
  out.setAttribute ('y', 12);
  out.textContent = (ok ? 'selftest: ok' : 'selftest: FAIL') + ' | ' + log.join (' | ');
  document.documentElement.appendChild (out);
}
