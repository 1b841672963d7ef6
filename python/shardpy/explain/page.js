// The page of shardpy --explain-html (explain/html.py inlines this file): plain ES2015,
// no library. It reads the blob, builds the table, the flow's SVG (as one string: fast
// for thousands of boxes), the warnings, and fills the side panel on selection.
(function () {
'use strict';
var blob = JSON.parse(document.getElementById('shardpy-explain-data').textContent);
var D = blob.document || {}, V = blob.view || {};
var C = D.collectives || [], PROG = D.program || {}, NODES = PROG.nodes || [];
var MESHES = PROG.meshes || {}, WARN = D.warnings || [];
var BOXES = V.boxes || [], EDGES = V.edges || [], BW = V.box_w || 156, BH = V.box_h || 34;
var NODE_BOX = V.node_box || [], CNODES = V.collective_nodes || [], WEIGHT = V.weight || [];
var COLLECTIVE_OPS = {};
(V.collective_ops || []).forEach(function (op) { COLLECTIVE_OPS[op] = 1; });
var WHY = {
  operand: 'An operand reached this op in a layout the op cannot use, so it is ' +
    'converted to the layout the op needs before the op runs.',
  result: 'This op computes its result in a layout its users cannot take (partial ' +
    'sums over a mesh axis, most often), so the result is converted after the op.',
  lowering: 'The per-device lowering of this op exchanges data itself (a halo ' +
    'exchange, or finishing a reduction over a sharded dim).',
  program: 'The input program already had this collective (manual code).'
};

function $(id) { return document.getElementById(id); }
function esc(s) {
  return String(s == null ? '' : s).replace(/[&<>"']/g, function (ch) {
    return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[ch];
  });
}
function num(v) { return typeof v === 'number' && isFinite(v); }
function fmtBytes(b) {
  if (!num(b)) return '\u2013';
  var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], k = 0;
  while (Math.abs(b) >= 1024 && k < u.length - 1) { b /= 1024; k++; }
  return (k ? b.toFixed(b < 10 ? 2 : 1) : String(Math.round(b))) + ' ' + u[k];
}
function fmtSec(s) {
  if (!num(s)) return '\u2013';
  if (s >= 1) return s.toFixed(3) + ' s';
  if (s >= 1e-3) return (s * 1e3).toFixed(3) + ' ms';
  if (s >= 1e-6) return (s * 1e6).toFixed(1) + ' \u00b5s';
  return (s * 1e9).toFixed(0) + ' ns';
}
function unq(a) { return String(a).replace(/"/g, ''); }
function axesText(axes) { return '{' + (axes || []).map(unq).join(', ') + '}'; }
function costColor(w) {
  w = num(w) ? Math.max(0, Math.min(1, w)) : 0;
  return 'hsl(' + Math.round(48 - 48 * w) + ',92%,' + Math.round(50 - 8 * w) + '%)';
}
function costOf(c) { return V.metric === 'seconds' ? c.seconds : c.bytes; }
function baseName(loc) { return String(loc || '').replace(/^.*[\\/]/, ''); }
function tail(s, n) { return s.length > n ? '\u2026' + s.slice(s.length - n + 1) : s; }
function shortOp(op) { return String(op || '').replace(/^stablehlo\./, ''); }
function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }

// Values: who makes each, who uses it.
var VALUE = {}, USERS = {}, AT = {}, ARGNO = {};
NODES.forEach(function (n, i) {
  if (n.op === 'argument' || n.op === 'block_argument') {  // a block's are listed in a row
    var prev = NODES[i - 1];
    ARGNO[i] = prev && prev.op === n.op && prev.func === n.func ? ARGNO[i - 1] + 1 : 0;
  }
  (n.results || []).forEach(function (r, k) { VALUE[r.id] = {node: i, res: r, k: k}; });
  (n.operands || []).forEach(function (v) { (USERS[v] = USERS[v] || []).push(i); });
  var key = n.op + '@' + n.loc;
  if (!(key in AT)) AT[key] = i;
});

// The collectives in cost order (seconds, then bytes: as the records are sorted).
var ORDER = C.map(function (c, i) { return i; });
ORDER.sort(function (a, b) {
  var sa = num(C[a].seconds) ? C[a].seconds : 0, sb = num(C[b].seconds) ? C[b].seconds : 0;
  var ba = num(C[a].bytes) ? C[a].bytes : 0, bb = num(C[b].bytes) ? C[b].bytes : 0;
  return (sb - sa) || (bb - ba) || (a - b);
});
var RANK = {};
ORDER.forEach(function (i, k) { RANK[i] = k; });

// -- header, warnings, table ---------------------------------------------------------
function renderSummary() {
  var bytes = 0, secs = 0, timed = C.length > 0;
  C.forEach(function (c) {
    if (num(c.bytes)) bytes += c.bytes;
    if (num(c.seconds)) secs += c.seconds; else timed = false;
  });
  var parts = [C.length + ' collective' + (C.length === 1 ? '' : 's'),
    fmtBytes(bytes) + ' per device'];
  if (timed) parts.push('\u2248 ' + fmtSec(secs) + ' estimated');
  Object.keys(MESHES).forEach(function (name) {
    parts.push('mesh @' + name + ' ' + (MESHES[name].axes || []).map(function (a) {
      return a[0] + '=' + a[1]; }).join(' \u00d7 '));
  });
  parts.push(NODES.length + ' program nodes');
  $('summary').textContent = parts.join(' \u00b7 ');
}

function renderWarnings() {
  if (!WARN.length) return;
  $('warnings').hidden = false;
  $('warning-list').innerHTML = WARN.map(function (w) {
    var n = AT[w.op + '@' + w.loc], at = w.op ? w.op + (w.loc ? ' at ' + w.loc : '') : w.loc;
    return '<li data-warning>' + (w.kind ? '<b>' + esc(w.kind) + '</b>: ' : '') +
      esc(w.message) + (at ? ' \u2014 ' + (n != null ? nodeLink(n, at) :
        '<span class="mono">' + esc(at) + '</span>') : '') +
      (w.suggestion ? '<div class="suggest">\u2192 ' + esc(w.suggestion) + '</div>' : '') +
      '</li>';
  }).join('');
}

function renderTable() {
  var rows = ORDER.map(function (i, k) {
    var c = C[i];
    return '<tr data-collective="' + i + '" data-kind="' + esc(c.kind) + '">' +
      '<td class="num">' + (k + 1) + '</td>' +
      '<td><span class="sw" style="background:' + costColor(WEIGHT[i]) + '"></span>' +
      esc(c.kind) + '</td><td class="mono">' + esc(axesText(c.axes)) + '</td>' +
      '<td class="num">' + esc(c.group_size) + '</td>' +
      '<td class="num">' + fmtBytes(c.bytes) + '</td>' +
      '<td class="num">' + fmtSec(c.seconds) + '</td>' +
      '<td class="op">' + esc(c.op) + '</td>' +
      '<td class="loc" title="' + esc(c.loc) + '">' + esc(tail(baseName(c.loc), 34)) +
      '</td>' +
      '<td>' + esc(c.why) + ((c.reasons || []).length > 1 ?
        ' <span class="tag">\u00d7' + c.reasons.length + '</span>' : '') + '</td></tr>';
  });
  $('collective-rows').innerHTML = rows.length ? rows.join('') :
    '<tr><td colspan="9" class="empty">No collectives: every op runs on its ' +
    'devices\' blocks as they are.</td></tr>';
}

// -- the flow ------------------------------------------------------------------------
var scale = 1, edgeEls = [], boxEdges = [];
function layoutText(r) {
  if (!r) return '';
  var shape = (r.shape || []).length ? r.shape.join('\u00d7') : 'scalar';
  var dims = r.dims || [], sharded = dims.some(function (d) { return d.length; });
  var t = shape;
  if (sharded) t += ' [' + dims.map(function (d) {
    return d.length ? d.map(unq).join('\u00b7') : '\u2013'; }).join(',') + ']';
  if ((r.unreduced || []).length) t += ' \u03a3' + r.unreduced.map(unq).join('\u00b7');
  return t;
}
function boxLabel(b) {
  var box = BOXES[b], head = NODES[box.n[0]], last = NODES[box.n[box.n.length - 1]];
  var t1;
  if (box.n.length > 1) t1 = box.n.length + ' ops: ' + shortOp(head.op) + ' \u2192 ' +
    shortOp(last.op);
  else if (head.op === 'argument' || head.op === 'block_argument')
    t1 = (head.op === 'argument' ? 'argument ' : 'block argument ') + (ARGNO[box.n[0]] || 0);
  else t1 = shortOp(head.op);
  if (box.r) t1 += ' \u229e' + box.r;
  return [clip(t1, 25), clip(layoutText((last.results || [])[0]), 23)];
}
function boxClass(b) {
  var box = BOXES[b], op = NODES[box.n[0]].op;
  if (box.n.length > 1) return 'chain';
  if (op === 'argument' || op === 'block_argument') return 'arg';
  if (op === 'stablehlo.constant') return 'const';
  if (COLLECTIVE_OPS[op]) return 'coll';
  return 'op';
}

function renderFlow() {
  var host = $('flow');
  if (!BOXES.length) {
    host.innerHTML = '<p class="empty">This document records no program: only the ' +
      'table of collectives can be shown.</p>';
    return;
  }
  var W = V.width || 400, H = V.height || 300, s = [];
  // Which boxes hold a collective's own op (their in-edges take its colour).
  var boxCost = {};
  CNODES.forEach(function (ns, i) {
    ns.forEach(function (n) {
      if (!COLLECTIVE_OPS[NODES[n].op]) return;
      var b = NODE_BOX[n];
      if (b >= 0 && !(boxCost[b] >= WEIGHT[i])) boxCost[b] = WEIGHT[i] || 0;
    });
  });
  s.push('<svg id="flow-svg" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' +
    H + '">');
  (V.bands || []).forEach(function (band) {
    s.push('<rect class="band-bg" x="4" y="' + band.y + '" width="' + (W - 8) +
      '" height="' + band.h + '" rx="6"/><text class="band" x="14" y="' + (band.y + 19) +
      '">func @' + esc(band.func) + '</text>');
  });
  s.push('<g class="edges">');
  BOXES.forEach(function () { boxEdges.push([]); });
  EDGES.forEach(function (e, k) {
    var a = BOXES[e[0]], b = BOXES[e[1]];
    var x1 = a.x + BW / 2, y1 = a.y + BH, x2 = b.x + BW / 2, y2 = b.y;
    var dy = Math.max(18, Math.min(60, Math.abs(y2 - y1) / 2));
    var cls = 'e' + (e[2] ? ' re' : ''), style = '';
    if (e[1] in boxCost && !e[2]) {
      cls += ' ce';
      style = ' style="stroke:' + costColor(boxCost[e[1]]) + ';stroke-width:' +
        (1.5 + 4.5 * boxCost[e[1]]).toFixed(1) + '"';
    }
    s.push('<path class="' + cls + '" data-edge="' + k + '"' + style + ' d="M' + x1 + ' ' +
      y1 + 'C' + x1 + ' ' + (y1 + dy) + ' ' + x2 + ' ' + (y2 - dy) + ' ' + x2 + ' ' + y2 +
      '"/>');
    boxEdges[e[0]].push(k);
    boxEdges[e[1]].push(k);
  });
  s.push('</g><g class="boxes">');
  BOXES.forEach(function (box, b) {
    var head = NODES[box.n[0]], label = boxLabel(b);
    s.push('<g class="box ' + boxClass(b) + '" data-box="' + b + '" data-node="' +
      box.n[0] + '" transform="translate(' + box.x + ',' + box.y + ')"><rect width="' +
      BW + '" height="' + BH + '" rx="4"/><text x="7" y="14">' + esc(label[0]) +
      '</text><text class="t2" x="7" y="27">' + esc(label[1]) + '</text><title>' +
      esc(head.op + (head.loc ? ' at ' + head.loc : '') +
        (box.n.length > 1 ? ' (+' + (box.n.length - 1) + ' more ops)' : '')) +
      '</title></g>');
  });
  s.push('</g><g class="marks">');
  var slots = {};
  ORDER.slice().reverse().forEach(function (i) {  // the dearest drawn last: on top
    var c = C[i], seen = {};
    (CNODES[i] || []).forEach(function (n) {
      var b = NODE_BOX[n];
      if (b == null || b < 0 || seen[b]) return;
      seen[b] = 1;
      var box = BOXES[b], slot = slots[b] = (slots[b] || 0) + 1, w = WEIGHT[i] || 0;
      var col = costColor(w), pad = 2 + 3 * slot;
      var text = c.kind + ' ' + (c.axes || []).map(unq).join(',') + ' ' +
        (V.metric === 'seconds' ? fmtSec(c.seconds) : fmtBytes(c.bytes));
      // Squeeze a long label into the pill rather than let it run past it.
      var fit = text.length * 6 > BW - 14 ? ' textLength="' + (BW - 14) +
        '" lengthAdjust="spacingAndGlyphs"' : '';
      s.push('<g class="cmark" data-collective="' + i + '" data-kind="' + esc(c.kind) +
        '" data-box="' + b + '"><rect class="outline" x="' + (box.x - pad) + '" y="' +
        (box.y - pad) + '" width="' + (BW + 2 * pad) + '" height="' + (BH + 2 * pad) +
        '" rx="6" style="stroke:' + col + ';stroke-width:' + (1.5 + 3.5 * w).toFixed(1) +
        '"/><g class="pill"><rect x="' + box.x + '" y="' + (box.y - 4 - 15 * slot) +
        '" width="' + BW + '" height="14" rx="7" style="fill:' + col +
        '"/><text x="' + (box.x + 7) + '" y="' + (box.y - 4 - 15 * slot + 10.5) + '"' + fit + '>' +
        esc(text) + '</text></g><title>' + esc(c.kind + ' over ' + axesText(c.axes) +
          ': ' + fmtBytes(c.bytes) + ', ' + fmtSec(c.seconds) + ' \u2014 ' + c.op +
          ' at ' + c.loc) + '</title></g>');
    });
  });
  s.push('</g></svg>');
  host.innerHTML = s.join('');
  var paths = host.querySelectorAll('path.e');
  for (var k = 0; k < paths.length; k++) edgeEls[+paths[k].getAttribute('data-edge')] = paths[k];
  $('legend').innerHTML = C.length ? 'cost (' + (V.metric === 'seconds' ?
    'estimated time' : 'bytes') + ') <span class="ramp"></span> ' +
    (V.chains ? ' \u00b7 chains without collectives shown as one box' : '') : '';
}

function setScale(v) {
  var svg = $('flow-svg');
  if (!svg) return;
  scale = Math.max(0.05, Math.min(3, v));
  svg.setAttribute('width', (V.width * scale).toFixed(0));
  svg.setAttribute('height', (V.height * scale).toFixed(0));
}
function reveal(b) {
  var box = BOXES[b], pane = $('flow');
  if (!box) return;
  pane.scrollLeft = Math.max(0, (box.x + BW / 2) * scale - pane.clientWidth / 2);
  pane.scrollTop = Math.max(0, (box.y + BH / 2) * scale - pane.clientHeight / 2);
}

// -- selection -----------------------------------------------------------------------
function clearMarks() {
  ['sel', 'need', 'hl'].forEach(function (cls) {
    var found = document.querySelectorAll('.' + cls);
    for (var k = 0; k < found.length; k++) found[k].classList.remove(cls);
  });
}
function markBox(b, cls) {
  var el = document.querySelector('#flow g.box[data-box="' + b + '"]');
  if (el) el.classList.add(cls);
  if (cls === 'sel') (boxEdges[b] || []).forEach(function (k) {
    if (edgeEls[k]) edgeEls[k].classList.add('hl');
  });
}
function setHash(h) {
  try { history.replaceState(null, '', '#' + h); } catch (err) { /* file:// in some browsers */ }
}

function selectCollective(i, scroll) {
  var c = C[i];
  if (!c) return;
  clearMarks();
  var row = document.querySelector('#collective-rows tr[data-collective="' + i + '"]');
  if (row) { row.classList.add('sel'); if (scroll) row.scrollIntoView({block: 'nearest'}); }
  var marks = document.querySelectorAll('#flow g.cmark[data-collective="' + i + '"]');
  for (var k = 0; k < marks.length; k++) marks[k].classList.add('sel');
  var first = -1;
  (CNODES[i] || []).forEach(function (n) {
    var b = NODE_BOX[n];
    if (b >= 0) { markBox(b, 'sel'); if (first < 0) first = b; }
  });
  (c.reasons && c.reasons.length ? c.reasons : [c]).forEach(function (r) {
    var n = AT[r.op + '@' + r.loc];
    if (n != null && NODE_BOX[n] >= 0) markBox(NODE_BOX[n], 'need');
  });
  if (first >= 0 && scroll !== false) reveal(first);
  $('panel-body').innerHTML = collectiveHtml(i);
  $('panel').scrollTop = 0;
  setHash('collective=' + i);
}

function selectNode(n, scroll) {
  var node = NODES[n];
  if (!node) return;
  clearMarks();
  var b = NODE_BOX[n];
  if (b >= 0) { markBox(b, 'sel'); if (scroll) reveal(b); }
  $('panel-body').innerHTML = nodeHtml(n);
  $('panel').scrollTop = 0;
  setHash('node=' + n);
}

// -- the side panel ------------------------------------------------------------------
function nodeLink(n, text) {
  return '<a data-go-node="' + n + '">' + esc(text) + '</a>';
}
function opAt(op, loc) {
  var n = AT[op + '@' + loc];
  var text = op + (loc ? ' at ' + loc : '');
  return n != null ? nodeLink(n, text) : esc(text);
}
function stepsHtml(steps) {
  if (!steps || !steps.length) return '<p class="note">(not recorded)</p>';
  return '<ol class="chain">' + steps.map(function (st) {
    return '<li><span class="how how-' + esc(st.how) + '">' + esc(st.how) + '</span> ' +
      opAt(st.op, st.loc) +
      (st.sharding ? '<div><code>' + esc(st.sharding) + '</code></div>' : '') +
      (st.level ? '<div class="note">' + esc(st.level) + '</div>' : '') +
      (st.note ? '<div class="note">' + esc(st.note) + '</div>' : '') + '</li>';
  }).join('') + '</ol>';
}
function costCell(o) {
  return '<td class="num">' + fmtBytes(o.bytes) + '</td><td class="num">' +
    fmtSec(o.seconds) + '</td>';
}

function collectiveHtml(i) {
  var c = C[i], h = [];
  h.push('<h3><span class="sw" style="background:' + costColor(WEIGHT[i]) + '"></span>' +
    esc(c.kind) + ' over ' + esc(axesText(c.axes)) + '</h3>');
  h.push('<div class="note">collective ' + (RANK[i] + 1) + ' of ' + C.length +
    ' by cost</div>');
  h.push('<dl><dt>devices / group</dt><dd>' + esc(c.group_size) + '</dd>' +
    '<dt>bytes / device</dt><dd>' + fmtBytes(c.bytes) + '</dd>' +
    '<dt>estimated time</dt><dd>' + fmtSec(c.seconds) + '</dd>' +
    '<dt>needed by</dt><dd>' + opAt(c.op, c.loc) + '</dd>' +
    (c.collective_loc && c.collective_loc !== c.loc ?
      '<dt>collective at</dt><dd class="mono">' + esc(c.collective_loc) + '</dd>' : '') +
    '</dl>');
  h.push('<div class="why"><b>why: ' + esc(c.why) + '</b> \u2014 ' +
    esc(WHY[c.why] || '') + '</div>');
  h.push('<h4>Layout</h4><dl><dt>from</dt><dd><code>' + esc(c.from_sharding || '(none ' +
    'recorded)') + '</code></dd><dt>to</dt><dd><code>' + esc(c.to_sharding || '(none ' +
    'recorded)') + '</code></dd></dl>');
  var vals = collectiveValues(i);
  if (vals.before || vals.after) {
    h.push('<div class="grids">');
    if (vals.before) h.push(gridHtml(vals.before, vals.own ? 'the op\'s operand' :
      'before (from)'));
    if (vals.after) h.push(gridHtml(vals.after, vals.own ? 'the op\'s result' :
      'after (to)'));
    h.push('</div>');
  }
  var o = c.origin || {};
  h.push('<h4>Where the "from" layout came from</h4>' + stepsHtml(o.from));
  h.push('<h4>Where the "to" layout came from</h4>' + stepsHtml(o.to));
  if ((c.alternatives || []).length) {
    h.push('<h4>Alternatives weighed</h4><table><tr><th>steps</th><th class="num">' +
      'bytes</th><th class="num">time</th></tr>' + c.alternatives.map(function (a) {
        return '<tr><td>' + esc((a.steps || []).join(' \u2192 ') || 'nothing') + '</td>' +
          costCell(a) + '</tr>';
      }).join('') + '</table>');
  }
  if ((c.placements || []).length) {
    h.push('<h4>Placements of ' + esc(c.op) + ' weighed</h4><table><tr><th>operands ' +
      '\u2192 results</th><th class="num">bytes</th><th class="num">time</th></tr>' +
      c.placements.map(function (p) {
        return '<tr><td>' + (p.chosen ? '<b>chosen</b> ' : '') + '<code>' +
          esc((p.operands || []).join(', ')) + '</code> \u2192 <code>' +
          esc((p.results || []).join(', ')) + '</code></td>' + costCell(p) + '</tr>';
      }).join('') + '</table>');
  }
  if ((c.reasons || []).length > 1) {
    h.push('<h4>Combines ' + c.reasons.length + ' collectives</h4><ol class="chain">' +
      c.reasons.map(function (r) {
        return '<li><span class="how">' + esc(r.why) + '</span> ' + opAt(r.op, r.loc) +
          '<div><code>' + esc(r.from_sharding) + '</code> \u2192 <code>' +
          esc(r.to_sharding) + '</code></div></li>';
      }).join('') + '</ol>');
  }
  var at = (CNODES[i] || []).map(function (n) {
    return nodeLink(n, NODES[n].op + ' (node ' + n + ')'); });
  h.push('<h4>On the flow</h4><p>' + (at.length ? at.join(', ') :
    'not placed: no program node matches it') + '</p>');
  return h.join('');
}

// The values before and after a collective: its own op's operand and result, else the
// operand / result of the op that needed it (the reason's index); for a lowering's or
// the program's own collective, the op's first operand and result (`own`).
function collectiveValues(i) {
  var ns = CNODES[i] || [], c = C[i];
  for (var k = 0; k < ns.length; k++) {
    var node = NODES[ns[k]];
    if (COLLECTIVE_OPS[node.op]) {
      var v = VALUE[(node.operands || [])[0]];
      return {before: v ? v.res : null, after: (node.results || [])[0]};
    }
  }
  var r = (c.reasons || [])[0] || {}, n = AT[c.op + '@' + c.loc];
  if (n == null) return {};
  var idx = num(r.index) && r.index >= 0 ? r.index : 0;
  if (c.why === 'operand') {
    var val = VALUE[(NODES[n].operands || [])[idx]];
    return {before: val ? val.res : null};
  }
  if (c.why === 'result') return {before: (NODES[n].results || [])[idx]};
  var first = VALUE[(NODES[n].operands || [])[0]];
  return {before: first ? first.res : null, after: (NODES[n].results || [])[0], own: true};
}

function nodeHtml(n) {
  var node = NODES[n], h = [], b = NODE_BOX[n], box = BOXES[b];
  h.push('<h3>' + esc(node.op) + '</h3><dl><dt>location</dt><dd class="mono">' +
    esc(node.loc || 'unknown') + '</dd><dt>function</dt><dd>@' + esc(node.func) +
    '</dd><dt>node</dt><dd>' + n + (node.depth ? ' (in a region, depth ' + node.depth +
    ')' : '') + '</dd></dl>');
  var mine = [];
  CNODES.forEach(function (ns, i) { if (ns.indexOf(n) >= 0) mine.push(i); });
  C.forEach(function (c, i) {
    if (mine.indexOf(i) < 0 && c.op === node.op && c.loc === node.loc) mine.push(i);
  });
  if (mine.length) {
    h.push('<h4>Collectives here</h4><ul>' + mine.map(function (i) {
      return '<li><a data-go-collective="' + i + '">' + esc(C[i].kind + ' over ' +
        axesText(C[i].axes)) + '</a> \u2014 ' + fmtBytes(C[i].bytes) + ', ' +
        fmtSec(C[i].seconds) + ' (' + esc(C[i].why) + ')</li>';
    }).join('') + '</ul>');
  }
  (node.results || []).forEach(function (r, k) {
    h.push('<h4>Result ' + k + ' (%' + esc(r.id) + ')</h4><div><code>' +
      esc((r.shape || []).join('\u00d7') || 'scalar') + ' ' + esc(r.dtype) + '</code> ' +
      '<code>' + esc(r.sharding || '(no sharding)') + '</code></div>' + gridHtml(r, ''));
  });
  if ((node.operands || []).length) {
    h.push('<h4>Operands</h4><ul>' + node.operands.map(function (v) {
      var p = VALUE[v];
      return '<li>%' + esc(v) + (p ? ' \u2190 ' + nodeLink(p.node, NODES[p.node].op +
        (NODES[p.node].loc ? ' at ' + NODES[p.node].loc : '')) + ' <code>' +
        esc(layoutText(p.res)) + '</code>' : '') + '</li>';
    }).join('') + '</ul>');
  }
  var users = [];
  (node.results || []).forEach(function (r) {
    (USERS[r.id] || []).forEach(function (u) { if (users.indexOf(u) < 0) users.push(u); });
  });
  if (users.length) {
    h.push('<h4>Users</h4><ul>' + users.slice(0, 50).map(function (u) {
      return '<li>' + nodeLink(u, NODES[u].op + (NODES[u].loc ? ' at ' + NODES[u].loc :
        '')) + '</li>';
    }).join('') + (users.length > 50 ? '<li>\u2026 ' + (users.length - 50) + ' more</li>' :
      '') + '</ul>');
  }
  if (box && box.n.length > 1) {
    h.push('<h4>Drawn as one box with</h4><ol class="chain">' + box.n.map(function (m) {
      return '<li>' + nodeLink(m, NODES[m].op + (NODES[m].loc ? ' at ' + NODES[m].loc :
        '')) + '</li>';
    }).join('') + '</ol>');
  }
  if (box && box.r) h.push('<p class="note">Its box also holds ' + box.r + ' op' +
    (box.r === 1 ? '' : 's') + ' of regions with no collective.</p>');
  return h.join('');
}

// -- a value laid out on the mesh (like jax.debug.visualize_array_sharding) -----------
var PALETTE = ['#a6cee3', '#b2df8a', '#fdbf6f', '#cab2d6', '#fb9a99', '#ffff99',
  '#8dd3c7', '#bebada', '#80b1d3', '#fdb462', '#b3de69', '#fccde5', '#d9d9d9', '#ccebc5'];
function parseAxis(s) {
  var m = /^\s*"?([^":]*)"?(?::\((\d+)\)(\d+))?\s*$/.exec(String(s));
  if (!m) return {name: unq(s), pre: 1, size: 0};
  return {name: m[1], pre: m[2] ? +m[2] : 1, size: m[3] ? +m[3] : 0};
}
function rangesText(ids) {
  var out = [], k = 0;
  while (k < ids.length) {
    var j = k;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    out.push(j - k >= 2 ? ids[k] + '\u2013' + ids[j] : ids.slice(k, j + 1).join(','));
    k = j + 1;
  }
  return out.join(',');
}
function gridHtml(r, caption) {
  if (!r) return '';
  var names = Object.keys(MESHES), mesh = MESHES[r.mesh], replicatedNote = '';
  if (!mesh) {
    if (names.length !== 1) return '<p class="note">No mesh: not laid out on devices.</p>';
    mesh = MESHES[names[0]];
    replicatedNote = 'No sharding: every device holds the whole value.';
  }
  var axes = mesh.axes || [], sizes = axes.map(function (a) { return +a[1] || 1; });
  var total = sizes.reduce(function (p, q) { return p * q; }, 1);
  var ids = (mesh.device_ids || []).length === total ? mesh.device_ids : null;
  var index = {};
  axes.forEach(function (a, k) { index[a[0]] = k; });
  var shape = r.shape || [], rank = shape.length;
  var dims = [];
  for (var d = 0; d < rank; d++) dims.push(((r.dims || [])[d] || []).map(parseAxis));
  var nblk = dims.map(function (refs) {
    return refs.reduce(function (p, ref) {
      var k = index[ref.name];
      return k == null ? p : p * (ref.size || sizes[k]);
    }, 1);
  });
  function blockOf(coords, d) {
    var idx = 0;
    dims[d].forEach(function (ref) {
      var k = index[ref.name];
      if (k == null) return;
      var full = sizes[k], sz = ref.size || full, rest = Math.max(1, full / (ref.pre * sz));
      idx = idx * sz + Math.floor(coords[k] / rest) % sz;
    });
    return idx;
  }
  // Which tensor dims the grid shows: rows and columns.
  var show, note = '';
  var sharded = [];
  for (d = 0; d < rank; d++) if (nblk[d] > 1) sharded.push(d);
  if (rank <= 2) show = rank === 2 ? [0, 1] : rank === 1 ? [null, 0] : [null, null];
  else {
    show = sharded.slice(0, 2);
    for (d = 0; d < rank && show.length < 2; d++) if (show.indexOf(d) < 0) show.push(d);
    show.sort(function (p, q) { return p - q; });
    var hidden = sharded.filter(function (q) { return show.indexOf(q) < 0; });
    note = 'Rank-' + rank + ' value: showing dims ' + show[0] + ' (rows) and ' + show[1] +
      ' (columns). ' + (!sharded.length ? 'No dim is split.' : sharded.length === 1 ?
      'Dim ' + sharded[0] + ' is the only split dim; the others are whole on every device.' :
      sharded.length === 2 ? 'They are the split dims; the others are whole on every device.' :
      'They are the first two split dims; dims ' + hidden.join(', ') + ' are split too: a ' +
      'cell lists the devices holding any of its blocks along them.');
  }
  var rows = show[0] == null ? 1 : nblk[show[0]], cols = show[1] == null ? 1 : nblk[show[1]];
  var cells = [];
  for (var q = 0; q < rows * cols; q++) cells.push([]);
  for (var L = 0; L < total; L++) {
    var coords = [], rem = L;
    for (var k = sizes.length - 1; k >= 0; k--) { coords[k] = rem % sizes[k]; rem = Math.floor(rem / sizes[k]); }
    var rr = show[0] == null ? 0 : blockOf(coords, show[0]);
    var cc = show[1] == null ? 0 : blockOf(coords, show[1]);
    cells[rr * cols + cc].push(ids ? ids[L] : L);
  }
  var width = 240, height;
  if (show[0] == null) height = 48;
  else {
    var er = shape[show[0]] || 1, ec = shape[show[1]] || 1;
    height = Math.round(width * er / ec);
  }
  height = Math.max(height, rows * 30, 40);
  height = Math.min(height, Math.max(170, rows * 30));
  var partial = (r.unreduced || []).map(unq);
  var h = ['<div class="grid-box">'];
  if (caption) h.push('<div class="cap">' + esc(caption) + ': <code>' +
    esc(layoutText(r)) + '</code></div>');
  h.push('<div class="mesh-grid" style="width:' + width + 'px;height:' + height +
    'px;grid-template-columns:repeat(' + cols + ',1fr);grid-template-rows:repeat(' + rows +
    ',1fr)">');
  function span(d, b) {
    if (d == null) return '';
    var e = shape[d], n = nblk[d];
    return n > 1 && e % n === 0 ? (b * e / n) + ':' + ((b + 1) * e / n) : '0:' + e;
  }
  cells.forEach(function (devs, q) {
    var rr = Math.floor(q / cols), cc = q % cols;
    devs.sort(function (p, s) { return p - s; });
    var label = devs.length > 12 ? rangesText(devs) : devs.join(',');
    var rng = [span(show[0], rr), span(show[1], cc)].filter(function (t) { return t; });
    h.push('<div class="cell" data-devices="' + esc(devs.join(',')) + '" style="background:' +
      PALETTE[q % PALETTE.length] + '" title="devices ' + esc(devs.join(', ')) +
      (rng.length ? ' hold [' + esc(rng.join(', ')) + ']' : '') + '"><span>' +
      (devs.length === 1 ? 'dev ' : '') + esc(clip(label, 40)) + '</span>' +
      (partial.length ? '<span class="rng">\u03a3 partial</span>' : '') +
      (rng.length && height / rows >= 40 && width / cols >= 60 ?
        '<span class="rng">[' + esc(rng.join(', ')) + ']</span>' : '') + '</div>');
  });
  h.push('</div>');
  h.push('<div class="note">mesh @' + esc(r.mesh || names[0]) + ' (' + axes.map(function (a) {
    return esc(a[0]) + '=' + a[1]; }).join(' \u00d7 ') + ', devices ' +
    (ids ? 'as listed' : 'in iota order') + ')' + (replicatedNote ? '. ' + replicatedNote :
    '') + '</div>');
  if (note) h.push('<div class="note">' + esc(note) + '</div>');
  if (partial.length) h.push('<div class="partial">Unreduced over ' +
    esc(axesText(partial)) + ': the blocks are partial sums. Devices of a cell that ' +
    'differ along ' + esc(partial.join(', ')) + ' hold different partial sums of the ' +
    'same block, which add up to the value.</div>');
  h.push('</div>');
  return h.join('');
}

// -- events --------------------------------------------------------------------------
function onClick(ev) {
  var t = ev.target;
  var go = t.closest ? t.closest('[data-go-node],[data-go-collective]') : null;
  if (go) {
    ev.preventDefault();
    if (go.hasAttribute('data-go-node')) selectNode(+go.getAttribute('data-go-node'), true);
    else selectCollective(+go.getAttribute('data-go-collective'), true);
    return;
  }
  var mark = t.closest ? t.closest('[data-collective]') : null;
  if (mark) { selectCollective(+mark.getAttribute('data-collective'), true); return; }
  var box = t.closest ? t.closest('g.box') : null;
  if (box) selectNode(+box.getAttribute('data-node'), false);
}

function fromHash() {
  var m = /collective=(\d+)/.exec(location.hash || '');
  if (m && C[+m[1]]) { selectCollective(+m[1], true); return true; }
  m = /node=(\d+)/.exec(location.hash || '');
  if (m && NODES[+m[1]]) { selectNode(+m[1], true); return true; }
  return false;
}

var findAt = -1;
function find(text) {
  text = text.trim().toLowerCase();
  if (!text) return;
  for (var k = 1; k <= NODES.length; k++) {
    var n = (findAt + k) % NODES.length, node = NODES[n];
    if ((node.op + ' ' + node.loc).toLowerCase().indexOf(text) >= 0) {
      findAt = n;
      selectNode(n, true);
      return;
    }
  }
}

renderSummary();
renderWarnings();
renderTable();
renderFlow();
document.body.addEventListener('click', onClick);
$('zoom-in').addEventListener('click', function () { setScale(scale * 1.25); });
$('zoom-out').addEventListener('click', function () { setScale(scale / 1.25); });
$('zoom-fit').addEventListener('click', function () {
  setScale(($('flow').clientWidth - 4) / (V.width || 1));
});
$('find').addEventListener('keydown', function (ev) {
  if (ev.key === 'Enter') find(ev.target.value);
});
window.addEventListener('hashchange', fromHash);
if (!fromHash() && ORDER.length) selectCollective(ORDER[0], true);
document.body.setAttribute('data-rendered', 'yes');
})();
