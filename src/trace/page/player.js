"use strict";
// The trace player. TRACES (written by the library before this script) holds one or two
// traces in the compact encoding of `nqueens::trace::html`; everything else (boards,
// counters, the tree, the constraints) is rebuilt here from the steps.
// Rows and columns are shown from 1, as `nqueens solve` and `verify` number them.

const ALPHA = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
const VAL = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHA.length; i++) VAL[ALPHA.charCodeAt(i)] = i;

// Step types and rejection reasons.
const PLACE = 0, FORCED = 1, REJECT = 2, REMOVE = 3, DEAD = 4, SOLUTION = 5, IMAGE = 6, DUPLICATE = 7;
const REASONS = ["column", "diagonal \\", "anti-diagonal /", "propagation", "symmetry"];
const REASON_OF = { c: 0, d: 1, a: 2, p: 3, s: 4 };
const CHECKPOINT = 512;
const BITBOARDS = ["bitboard", "mirror", "symmetry", "parallel"];

function decode(t) {
  const n = t.n, s = t.steps;
  let len = 0;
  for (let i = 0; i < s.length; len++) {
    const k = s[i];
    i += (k === "S" || k === "I" || k === "U") ? 1 + n : k === "D" ? 2 : 3;
  }
  const type = new Uint8Array(len), row = new Int8Array(len), col = new Int8Array(len);
  const reason = new Uint8Array(len), cols = new Map();
  for (let i = 0, j = 0; j < len; j++) {
    const k = s[i];
    if (k === "S" || k === "I" || k === "U") {
      type[j] = k === "S" ? SOLUTION : k === "I" ? IMAGE : DUPLICATE;
      const c = [];
      for (let r = 0; r < n; r++) c.push(VAL[s.charCodeAt(i + 1 + r)]);
      cols.set(j, c);
      row[j] = col[j] = -1;
      i += 1 + n;
    } else if (k === "D") {
      type[j] = DEAD;
      row[j] = s[i + 1] === "!" ? -1 : VAL[s.charCodeAt(i + 1)];
      col[j] = -1;
      i += 2;
    } else {
      if (k === "P") type[j] = PLACE;
      else if (k === "F") type[j] = FORCED;
      else if (k === "R") type[j] = REMOVE;
      else { type[j] = REJECT; reason[j] = REASON_OF[k]; }
      row[j] = VAL[s.charCodeAt(i + 1)];
      col[j] = VAL[s.charCodeAt(i + 2)];
      i += 3;
    }
  }
  // Running totals after each step (index k: after k steps).
  const checks = new Float64Array(len + 1), nodes = new Int32Array(len + 1), sols = new Int32Array(len + 1);
  const c = t.checks;
  for (let i = 0, j = 0; j < len; j++) {
    let d;
    if (c[i] === "~") { const end = c.indexOf(".", i); d = Number(c.slice(i + 1, end)); i = end + 1; }
    else { d = VAL[c.charCodeAt(i)]; i++; }
    checks[j + 1] = checks[j] + d;
    nodes[j + 1] = nodes[j] + (type[j] <= FORCED ? 1 : 0);
    sols[j + 1] = sols[j] + (type[j] === SOLUTION || type[j] === IMAGE ? 1 : 0);
  }
  const places = [], removes = [], solutions = [];
  for (let j = 0; j < len; j++) {
    if (type[j] <= FORCED) places.push(j + 1);
    else if (type[j] === REMOVE) removes.push(j + 1);
    else if (type[j] === SOLUTION || type[j] === IMAGE) solutions.push(j + 1);
  }
  // Boards every CHECKPOINT steps: column + 1 of each row's queen, negative when forced.
  const marks = new Int8Array((Math.floor(len / CHECKPOINT) + 1) * n);
  const q = new Int8Array(n);
  for (let j = 0; j < len; j++) {
    if (j % CHECKPOINT === 0) marks.set(q, (j / CHECKPOINT) * n);
    apply(q, type[j], row[j], col[j]);
  }
  if (len % CHECKPOINT === 0) marks.set(q, (len / CHECKPOINT) * n);
  return { n, algo: t.algo, complete: t.complete, len, type, row, col, reason, cols, checks, nodes, sols,
    places: Int32Array.from(places), removes: Int32Array.from(removes), solutions: Int32Array.from(solutions), marks };
}

function apply(q, type, row, col) {
  if (type === PLACE) q[row] = col + 1;
  else if (type === FORCED) q[row] = -(col + 1);
  else if (type === REMOVE) q[row] = 0;
}

// The board after `k` steps: column of each row's queen (-1 none) and whether it was forced.
function boardAt(T, k) {
  const base = Math.floor(k / CHECKPOINT);
  const q = T.marks.slice(base * T.n, base * T.n + T.n);
  for (let j = base * CHECKPOINT; j < k; j++) apply(q, T.type[j], T.row[j], T.col[j]);
  const cols = [], forced = [];
  for (let r = 0; r < T.n; r++) { cols.push(Math.abs(q[r]) - 1); forced.push(q[r] < 0); }
  return { cols, forced };
}

// The search tree: a vertex per queen placed and per square rejected below the path, laid out
// with leaves side by side in search order (a queen one unit, a rejection half) and parents
// centred over their children, so that the picture never moves as the search goes on.
function buildTree(T) {
  const cap = T.len + 1;
  const parent = new Int32Array(cap), depth = new Uint8Array(cap), kind = new Uint8Array(cap);
  const step = new Int32Array(cap), vr = new Int8Array(cap), vc = new Int8Array(cap);
  const mark = new Uint8Array(cap), markStep = new Int32Array(cap), x = new Float64Array(cap);
  const at = new Int32Array(T.len + 1);
  let count = 1;
  const path = [0];
  const q = new Int8Array(T.n).fill(-1);
  // Every mark as it is made, in step order: for drawing only the marks of new steps.
  const markV = [], markT = [], markS = [];
  for (let j = 0; j < T.len; j++) {
    const top = path[path.length - 1], t = T.type[j];
    let here = top;
    if (t === PLACE || t === FORCED || (t === REJECT && q[T.row[j]] !== T.col[j])) {
      const v = count++;
      parent[v] = top; depth[v] = path.length; step[v] = j + 1; vr[v] = T.row[j]; vc[v] = T.col[j];
      kind[v] = t === PLACE ? 1 : t === FORCED ? 2 : 3;
      if (t !== REJECT) { path.push(v); q[T.row[j]] = T.col[j]; }
      here = v;
    } else if (t === REJECT) {
      // A test of queens already placed (permutations) failed: marked on the node, not a stub.
      mark[top] = 4; markStep[top] = j + 1; markV.push(top); markT.push(4); markS.push(j + 1);
    } else if (t === REMOVE) {
      if (path.length > 1) path.pop();
      q[T.row[j]] = -1;
      here = path[path.length - 1];
    } else {
      const m = t === SOLUTION ? 1 : t === DEAD ? 2 : t === DUPLICATE ? 3 : 0;
      if (m) { mark[top] = m; markStep[top] = j + 1; markV.push(top); markT.push(m); markS.push(j + 1); }
    }
    at[j + 1] = here;
  }
  const has = new Uint8Array(count);
  for (let v = 1; v < count; v++) has[parent[v]] = 1;
  let next = 0.5;
  for (let v = 0; v < count; v++) {
    if (!has[v]) { const dx = kind[v] === 3 ? 0.5 : 1; x[v] = next + dx / 2 - 0.5; next += dx; }
  }
  const lo = new Float64Array(count).fill(Infinity), hi = new Float64Array(count).fill(-Infinity);
  for (let v = count - 1; v >= 1; v--) {
    if (has[v]) x[v] = (lo[v] + hi[v]) / 2;
    const p = parent[v];
    if (x[v] < lo[p]) lo[p] = x[v];
    if (x[v] > hi[p]) hi[p] = x[v];
  }
  if (has[0]) x[0] = (lo[0] + hi[0]) / 2;
  let maxDepth = 0;
  for (let v = 0; v < count; v++) if (depth[v] > maxDepth) maxDepth = depth[v];
  // Vertices of each depth in search order, which is left to right: for finding by position.
  const byDepth = [];
  for (let d = 0; d <= maxDepth; d++) byDepth.push([]);
  for (let v = 0; v < count; v++) byDepth[depth[v]].push(v);
  return { count, parent, depth, kind, step, vr, vc, mark, markStep, x, at, width: next + 0.5, maxDepth,
    markV: Int32Array.from(markV), markT: Uint8Array.from(markT), markS: Int32Array.from(markS),
    byDepth: byDepth.map(function (a) { return Int32Array.from(a); }) };
}

const PSEUDO = {
  backtracking: ["solve(row):", "  if row > n: report the solution; return", "  for col in 1..n:",
    "    if a queen above attacks (row, col):", "      reject the square; continue", "    place a queen at (row, col)",
    "    solve(row + 1)", "    take the queen back", "  no square left: dead end"],
  flags: ["solve(row):", "  if row > n: report the solution; return", "  for col in 1..n:",
    "    if cols[col] or diag[row-col+n] or anti[row+col-1]:", "      reject the square; continue",
    "    place a queen; raise the three flags", "    solve(row + 1)", "    take the queen back; lower the flags",
    "  no square left: dead end"],
  swap: ["solve(row):   perm holds the unused columns from row on", "  if row > n: report perm; return",
    "  for i in row..n:   swap perm[row], perm[i]", "    if diag[row-col+n] or anti[row+col-1]:",
    "      reject the square; continue", "    place a queen at (row, perm[row]); raise flags", "    solve(row + 1)",
    "    take the queen back; swap back", "  no square left: dead end"],
  permutations: ["for each ordering perm of the columns:", "  place queen i at (i, perm[i]) for the rows that changed",
    "  test: for each pair of queens", "    if they share a diagonal:", "      reject the ordering; next",
    "  (columns differ: perm is a permutation)", "  report the solution", "  take back the queens the next ordering moves",
    ""],
  bitboard: ["solve(cols, left, right):", "  if cols = all: report the solution; return",
    "  free = ~(cols | left | right) & all", "  if free = 0: dead end", "  squares not in free: rejected by the mask",
    "  for each bit b of free: place a queen at b", "    solve(cols|b, (left|b)<<1, (right|b)>>1)", "    take the queen back",
    ""],
  cp: ["solve(domains):", "  propagate: a row or column with one square left gets its queen",
    "  if a row or column has no square left: fail (dead end)", "  if every row has a queen: report the solution",
    "  choose the row with the fewest squares left", "  for each square left in it: place a queen (decision)",
    "    solve(domains less the squares it attacks)", "    take the queens back", "  squares gone from a domain: rejected"],
};
PSEUDO.mirror = PSEUDO.bitboard.slice();
PSEUDO.mirror[8] = "first row: left half only; double the count";
PSEUDO.symmetry = PSEUDO.bitboard.slice();
PSEUDO.symmetry[8] = "a board whose smaller image is searched is dropped";
PSEUDO.parallel = PSEUDO.bitboard;

// The pseudocode line of each step: [place, forced, reject, remove, dead end, solution, image, duplicate].
function lineOf(algo, t) {
  if (algo === "cp") return [5, 1, 8, 7, 2, 3, 3, 3][t];
  if (algo === "permutations") return [1, 1, 3, 7, 3, 6, 6, 6][t];
  if (BITBOARDS.indexOf(algo) >= 0) return [5, 5, 4, 7, 3, 1, 1, 8][t];
  return [5, 5, 4, 7, 8, 1, 1, 1][t];
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function sqName(r, c) { return "row " + (r + 1) + ", column " + (c + 1); }

function Player(T, host, onJump) {
  const n = T.n, algo = T.algo, tree = buildTree(T);
  const self = { T, tree, k: -1 };
  const root = el("section", { class: "player", "aria-label": algo + " player" });
  root.appendChild(el("h2", {}, algo));
  const top = el("div", { class: "top" });
  const left = el("div", { class: "left" });
  // The board with its columns numbered above and its rows on the left (the squares' names
  // already say both to screen readers), and a layer over it for the line of attack.
  const frame = el("div", { class: "bframe" });
  frame.appendChild(el("div", { "aria-hidden": "true" }));
  const colNums = el("div", { class: "nums cols", "aria-hidden": "true" });
  const rowNums = el("div", { class: "nums rows", "aria-hidden": "true" });
  for (let i = 1; i <= n; i++) { colNums.appendChild(el("span", {}, String(i))); rowNums.appendChild(el("span", {}, String(i))); }
  frame.appendChild(colNums); frame.appendChild(rowNums);
  const board = el("div", { class: "board", role: "grid", "aria-label": "board, " + n + " by " + n });
  frame.appendChild(board);
  const SVGNS = "http://www.w3.org/2000/svg";
  const lineLayer = document.createElementNS(SVGNS, "svg");
  lineLayer.setAttribute("class", "attack"); lineLayer.setAttribute("aria-hidden", "true");
  lineLayer.setAttribute("viewBox", "0 0 " + n + " " + n); lineLayer.setAttribute("preserveAspectRatio", "none");
  const attackLine = document.createElementNS(SVGNS, "line");
  lineLayer.appendChild(attackLine);
  const squares = [];
  for (let r = 0; r < n; r++) {
    const line = el("div", { role: "row", style: "display: contents" });
    for (let c = 0; c < n; c++) {
      const d = el("div", { role: "gridcell", class: "sq " + ((r + c) % 2 === 0 ? "l" : "d") });
      line.appendChild(d);
      squares.push(d);
    }
    board.appendChild(line);
  }
  board.appendChild(lineLayer);
  left.appendChild(frame);
  const caption = el("div", { class: "caption" });
  const explain = el("div", { class: "explain" });
  const counters = el("div", { class: "counters" });
  left.appendChild(caption); left.appendChild(explain); left.appendChild(counters);
  const side = el("div", { class: "side" });
  side.appendChild(el("h2", {}, algo === "permutations" ? "The ordering" : algo === "cp" ? "Call stack: the decisions" : "Call stack"));
  const stackList = el("ol", { class: "stack", "aria-label": "call stack of " + algo + ", outermost call first" });
  side.appendChild(stackList);
  side.appendChild(el("h2", {}, "Code"));
  const pseudo = el("pre", { class: "pseudo", tabindex: "0", "aria-label": "pseudocode of " + algo });
  const lines = (PSEUDO[algo] || PSEUDO.backtracking).map(function (l) { const s = el("span", {}, l || " "); pseudo.appendChild(s); return s; });
  side.appendChild(pseudo);
  side.appendChild(el("h2", {}, "Constraints"));
  const cons = el("div", { class: "cons", tabindex: "0", role: "region", "aria-label": "constraints of " + algo });
  side.appendChild(cons);
  top.appendChild(left); top.appendChild(side);
  root.appendChild(top);

  const bar = el("div", { class: "treebar" });
  bar.appendChild(el("strong", {}, "Search tree"));
  const fitB = el("button", { type: "button" }, "fit"), inB = el("button", { type: "button", "aria-label": "zoom in" }, "+");
  const outB = el("button", { type: "button", "aria-label": "zoom out" }, "\u2212");
  const follow = el("input", { type: "checkbox" }); follow.checked = true;
  const faint = el("input", { type: "checkbox" }); faint.checked = true;
  const fl = el("label", {}); fl.appendChild(follow); fl.appendChild(document.createTextNode(" follow the search"));
  const fa = el("label", {}); fa.appendChild(faint); fa.appendChild(document.createTextNode(" show the unexplored part (faint)"));
  [fitB, inB, outB, fl, fa].forEach(function (b) { bar.appendChild(b); });
  root.appendChild(bar);
  // Only what this algorithm's tree can show.
  const legend = ["\u25CF blue: queen placed"];
  if (algo === "cp") legend.push("\u25C6 forced by propagation");
  if (algo !== "permutations") legend.push("\u2715 red: square rejected");
  legend.push("\u2605 solution", algo === "permutations" ? "\u2298 test failed" : "\u2298 dead end");
  if (algo === "symmetry") legend.push("\u2298 grey: duplicate dropped");
  legend.push("\u25CE where the search stands", "click a node to go to its step; drag to pan, wheel to zoom");
  root.appendChild(el("div", { class: "legend" }, legend.join(" \u00B7 ")));
  const wrap = el("div", { class: "treewrap" });
  const canvas = el("canvas", { class: "tree", role: "img", tabindex: "0", "aria-keyshortcuts": "+ - 0 c" });
  const mini = el("canvas", { class: "mini", role: "img", "aria-label": "overview of the whole tree; click to move the view" });
  const tip = el("div", { class: "tip" });
  wrap.appendChild(canvas); wrap.appendChild(mini); wrap.appendChild(tip);
  root.appendChild(wrap);
  host.appendChild(root);

  // The view: tree units per pixel horizontally; the tree's depth always fits vertically.
  const view = { x0: 0, scale: 1 };
  let pending = false, miniImage = null;
  function size(c) {
    const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight), dpr = window.devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); if (c === mini) miniImage = null; }
    return { w, h, dpr };
  }
  function fit() { const w = canvas.clientWidth || 600; view.scale = w / tree.width; view.x0 = 0; redraw(); }
  function zoom(f, px) {
    const w = canvas.clientWidth || 600;
    if (px === undefined) px = w / 2;
    const ux = view.x0 + px / view.scale;
    view.scale = Math.min(60, Math.max((w / tree.width) / 2, view.scale * f));
    view.x0 = ux - px / view.scale;
    redraw();
  }
  function centre(v) { const w = canvas.clientWidth || 600; view.x0 = tree.x[v] - w / 2 / view.scale; }
  const levelY = function (d, h) { return 22 + d * (h - 50) / Math.max(1, tree.maxDepth); };
  // A rejected square's stub stands a third of the way up to its parent's level.
  const vertexY = function (v, h) { const y = levelY(tree.depth[v], h); return tree.kind[v] === 3 ? y - (y - levelY(tree.depth[v] - 1, h)) * 0.35 : y; };
  function redraw() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
  // The tree is painted on a layer kept between frames: stepping forward in the same view
  // paints only the vertices and marks of the new steps on it, so that playing at full speed
  // with 400,000 vertices in view costs little; any other change paints it afresh.
  const layer = document.createElement("canvas");
  let layerKey = "", layerK = -1;
  // The first vertex made after step `k` (vertices are made in step order).
  function firstAfter(k) {
    let lo = 1, hi = tree.count;
    while (lo < hi) { const m = (lo + hi) >> 1; if (tree.step[m] <= k) lo = m + 1; else hi = m; }
    return lo;
  }
  function geometry(w, h) {
    const s = view.scale, x0 = view.x0;
    return { w, h, s, x0, x1: x0 + w / s, r: Math.max(1.2, Math.min(6, s * 0.3)), X: function (v) { return (tree.x[v] - x0) * s; } };
  }
  // Paints vertices v0..v1 (those made by step k are dark, later ones faint if shown).
  function paint(g, G, v0, v1, k) {
    const { h, s, x0, x1, r, X } = G;
    const seenE = new Path2D(), faintE = new Path2D(), nodes = new Path2D(), forcedN = new Path2D();
    const stubs = new Path2D(), faintN = new Path2D();
    const showStubs = s >= 2, dense = s < 4;
    for (let v = Math.max(1, v0); v <= v1; v++) {
      const p = tree.parent[v], xv = tree.x[v], xp = tree.x[p];
      if ((xv < x0 - 1 || xv > x1 + 1) && (xp < x0 - 1 || xp > x1 + 1)) continue;
      const seen = tree.step[v] <= k, stub = tree.kind[v] === 3;
      if (stub && !showStubs) continue;
      if (!seen && !faint.checked) continue;
      const px = X(v), py = vertexY(v, h), ppx = X(p), ppy = vertexY(p, h);
      const e = seen ? seenE : faintE;
      e.moveTo(ppx, ppy); e.lineTo(px, py);
      if (stub) {
        if (seen) { const a = Math.min(4, s * 0.2) + 1; stubs.moveTo(px - a, py - a); stubs.lineTo(px + a, py + a); stubs.moveTo(px + a, py - a); stubs.lineTo(px - a, py + a); }
      } else if (!seen) {
        faintN.rect(px - r / 2, py - r / 2, r, r);
      } else if (tree.kind[v] === 2) {
        forcedN.moveTo(px, py - r - 1); forcedN.lineTo(px + r + 1, py); forcedN.lineTo(px, py + r + 1); forcedN.lineTo(px - r - 1, py); forcedN.closePath();
      } else if (dense) {
        nodes.rect(px - r, py - r, 2 * r, 2 * r);
      } else {
        nodes.moveTo(px + r, py); nodes.arc(px, py, r, 0, 2 * Math.PI);
      }
    }
    g.lineWidth = 1;
    g.strokeStyle = "#d0d0d0"; g.stroke(faintE);
    g.fillStyle = "#d0d0d0"; g.fill(faintN);
    g.strokeStyle = "#333"; g.stroke(seenE);
    g.strokeStyle = "#a3000b"; g.lineWidth = 1.6; g.stroke(stubs); g.lineWidth = 1;
    g.fillStyle = "#0050a0"; g.fill(nodes);
    g.fillStyle = "#0072b2"; g.strokeStyle = "#000"; g.fill(forcedN); g.stroke(forcedN);
    // Labels when there is room.
    if (s >= 26) {
      g.fillStyle = "#000"; g.font = "10px sans-serif"; g.textAlign = "center";
      for (let v = Math.max(1, v0); v <= v1; v++) {
        const xv = tree.x[v];
        if (xv < x0 - 1 || xv > x1 + 1 || tree.kind[v] === 3) continue;
        if (tree.step[v] > k && !faint.checked) continue;
        g.fillText((tree.vr[v] + 1) + "," + (tree.vc[v] + 1), X(v), vertexY(v, h) - r - 3);
      }
    }
  }
  // Paints the marks made in steps (k0, k1]: solutions, dead ends, failed tests, duplicates.
  function paintMarks(g, G, k0, k1) {
    const { h, s, x0, x1, r, X } = G;
    let lo = 0, hi = tree.markS.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (tree.markS[m] <= k0) lo = m + 1; else hi = m; }
    for (let i = lo; i < tree.markS.length && tree.markS[i] <= k1; i++) {
      const v = tree.markV[i], m = tree.markT[i], xv = tree.x[v];
      if (xv < x0 - 1 || xv > x1 + 1) continue;
      const px = X(v), py = vertexY(v, h);
      if (m === 1) star(g, px, py + r + 7, Math.max(4, r + 2));
      else if (s >= 4) {
        // Rings only where they do not run together; solutions are starred at every zoom.
        g.strokeStyle = m === 3 ? "#555" : "#a3000b"; g.lineWidth = 2;
        g.beginPath(); g.arc(px, py, r + 3, 0, 2 * Math.PI); g.moveTo(px - r - 2, py + r + 2); g.lineTo(px + r + 2, py - r - 2); g.stroke();
        g.lineWidth = 1;
      }
    }
  }
  function draw() {
    pending = false;
    const { w, h, dpr } = size(canvas);
    const G = geometry(w, h), k = self.k;
    const key = [view.x0, view.scale, w, h, dpr, faint.checked].join();
    const lg = layer.getContext("2d");
    if (key !== layerKey || k < layerK) {
      layer.width = canvas.width; layer.height = canvas.height;
      lg.setTransform(dpr, 0, 0, dpr, 0, 0);
      lg.clearRect(0, 0, w, h);
      paint(lg, G, 1, tree.count - 1, k);
      paintMarks(lg, G, 0, k);
    } else if (k > layerK) {
      paint(lg, G, firstAfter(layerK), firstAfter(k) - 1, k);
      paintMarks(lg, G, layerK, k);
    }
    layerKey = key; layerK = k;
    const g = canvas.getContext("2d");
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.drawImage(layer, 0, 0);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    // Where the search stands: a black ring inside a white one.
    const cur = tree.at[Math.max(0, k)], r = G.r;
    const cx = G.X(cur), cy = vertexY(cur, h);
    g.lineWidth = 3; g.strokeStyle = "#fff"; g.beginPath(); g.arc(cx, cy, r + 8, 0, 2 * Math.PI); g.stroke();
    g.lineWidth = 2.5; g.strokeStyle = "#000"; g.beginPath(); g.arc(cx, cy, r + 6, 0, 2 * Math.PI); g.stroke();
    g.lineWidth = 1;
    // The path from the root to here labelled (row, column) at every zoom, on a white halo.
    g.font = "bold 12px sans-serif"; g.textAlign = "left"; g.lineWidth = 3; g.strokeStyle = "#fff"; g.fillStyle = "#000";
    const labels = [];
    for (let v = cur; v > 0; v = tree.parent[v]) {
      if (tree.kind[v] === 3) continue;
      const label = (tree.vr[v] + 1) + "," + (tree.vc[v] + 1), lx = G.X(v) + r + 4, ly = vertexY(v, h) - r - 2;
      g.strokeText(label, lx, ly); g.fillText(label, lx, ly);
      labels.unshift("(" + label + ")");
    }
    g.lineWidth = 1;
    canvas.setAttribute("aria-label", "search tree, " + tree.count + " vertices; " + (labels.length ? "path from the root: " + labels.join(" ") + "; " : "") + "the search stands at " +
      (cur === 0 ? "the root" : "depth " + tree.depth[cur] + ", " + sqName(tree.vr[cur], tree.vc[cur])));
    drawMini(G.x0, G.x1, cur);
  }
  function star(g, x, y, r) {
    g.beginPath();
    for (let i = 0; i < 10; i++) { const a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r; g.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a)); }
    g.closePath(); g.fillStyle = "#f0e442"; g.fill(); g.strokeStyle = "#000"; g.stroke();
  }
  function drawMini(x0, x1, cur) {
    const { w, h, dpr } = size(mini);
    const g = mini.getContext("2d", { willReadFrequently: true });
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (!miniImage) {
      // Density of queen vertices per pixel column and depth: drawn once.
      g.clearRect(0, 0, w, h); g.fillStyle = "#f4f4f4"; g.fillRect(0, 0, w, h);
      const s = w / tree.width; g.fillStyle = "#777";
      for (let v = 1; v < tree.count; v++) if (tree.kind[v] !== 3) g.fillRect(Math.floor(tree.x[v] * s), 2 + tree.depth[v] * (h - 4) / (tree.maxDepth + 1), 1, Math.max(1, (h - 4) / (tree.maxDepth + 1)));
      miniImage = g.getImageData(0, 0, mini.width, mini.height);
    } else {
      g.putImageData(miniImage, 0, 0);
    }
    const s = w / tree.width;
    g.fillStyle = "rgba(0, 80, 160, 0.18)"; g.strokeStyle = "#0050a0"; g.lineWidth = 1.5;
    g.fillRect(x0 * s, 0, Math.max(2, (x1 - x0) * s), h); g.strokeRect(x0 * s, 0.5, Math.max(2, (x1 - x0) * s), h - 1);
    g.fillStyle = "#000"; g.fillRect(tree.x[cur] * s - 1, 0, 2, h);
  }
  function vertexNear(px, py) {
    const h = canvas.clientHeight;
    let best = -1, bd = 144;
    for (let d = 0; d <= tree.maxDepth; d++) {
      const a = tree.byDepth[d], ux = view.x0 + px / view.scale;
      let lo = 0, hi = a.length - 1;
      while (lo < hi) { const m = (lo + hi) >> 1; if (tree.x[a[m]] < ux) lo = m + 1; else hi = m; }
      for (let i = Math.max(0, lo - 2); i <= Math.min(a.length - 1, lo + 2); i++) {
        const v = a[i], dx = (tree.x[v] - view.x0) * view.scale - px, dy = vertexY(v, h) - py, dd = dx * dx + dy * dy;
        if (dd < bd) { bd = dd; best = v; }
      }
    }
    return best;
  }
  let drag = null;
  canvas.addEventListener("pointerdown", function (e) { drag = { x: e.clientX, x0: view.x0, moved: false }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointermove", function (e) {
    const b = canvas.getBoundingClientRect();
    if (drag) {
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) { view.x0 = drag.x0 - dx / view.scale; follow.checked = false; redraw(); }
      return;
    }
    const v = vertexNear(e.clientX - b.left, e.clientY - b.top);
    if (v > 0) {
      const what = tree.kind[v] === 3 ? "rejected" : tree.kind[v] === 2 ? "forced queen" : "queen";
      tip.textContent = what + " at " + sqName(tree.vr[v], tree.vc[v]) + ", step " + tree.step[v];
      tip.style.display = "block"; tip.style.left = (e.clientX - b.left + 12) + "px"; tip.style.top = (e.clientY - b.top + 12) + "px";
    } else tip.style.display = "none";
  });
  canvas.addEventListener("pointerleave", function () { tip.style.display = "none"; });
  canvas.addEventListener("pointerup", function (e) {
    const wasDrag = drag && drag.moved;
    drag = null;
    if (wasDrag) return;
    const b = canvas.getBoundingClientRect();
    const v = vertexNear(e.clientX - b.left, e.clientY - b.top);
    if (v >= 0) onJump(self, tree.step[v]);
  });
  canvas.addEventListener("wheel", function (e) { e.preventDefault(); const b = canvas.getBoundingClientRect(); follow.checked = false; zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - b.left); }, { passive: false });
  function miniGo(e) { const b = mini.getBoundingClientRect(); const ux = (e.clientX - b.left) / b.width * tree.width; view.x0 = ux - canvas.clientWidth / 2 / view.scale; follow.checked = false; redraw(); }
  mini.addEventListener("pointerdown", function (e) { miniGo(e); mini.setPointerCapture(e.pointerId); });
  mini.addEventListener("pointermove", function (e) { if (e.buttons) miniGo(e); });
  // With the tree focused: + and - zoom, 0 fits, c centres on where the search stands.
  canvas.addEventListener("keydown", function (e) {
    const act = { "+": function () { zoom(1.5); }, "=": function () { zoom(1.5); }, "-": function () { zoom(1 / 1.5); },
      "0": function () { follow.checked = false; fit(); }, c: function () { centre(tree.at[Math.max(0, self.k)]); redraw(); } }[e.key];
    if (act) { act(); e.preventDefault(); }
  });
  fitB.onclick = function () { follow.checked = false; fit(); };
  inB.onclick = function () { zoom(1.5); };
  outB.onclick = function () { zoom(1 / 1.5); };
  faint.onchange = redraw;
  follow.onchange = function () { if (follow.checked) { centre(tree.at[Math.max(0, self.k)]); redraw(); } };
  new ResizeObserver(function () { miniImage = null; redraw(); }).observe(canvas);

  // The square checks made by the step that leads to position k.
  function checksOf(k) { return k > 0 ? T.checks[k] - T.checks[k - 1] : 0; }
  function constraints(b, t, er, ec, rsn, k) {
    cons.textContent = "";
    const q = b.cols;
    const placed = [];
    for (let r = 0; r < n; r++) if (q[r] >= 0) placed.push(r);
    const rejecting = t === REJECT;
    const table = function (title, cells, labels) {
      const tb = el("table", { class: "arr" });
      tb.appendChild(el("caption", {}, title));
      const hr = el("tr", {}), dr = el("tr", {});
      cells.forEach(function (c, i) { hr.appendChild(el("th", { scope: "col" }, labels ? labels[i] : String(i + 1))); const d = el("td", { class: c.cls || "" }, c.text); if (c.label) d.setAttribute("aria-label", c.label); dr.appendChild(d); });
      tb.appendChild(hr); tb.appendChild(dr);
      cons.appendChild(tb);
    };
    if (algo === "flags" || algo === "swap" || algo === "backtracking") {
      const cols = new Array(n).fill(false), dg = new Array(2 * n - 1).fill(false), an = new Array(2 * n - 1).fill(false);
      placed.forEach(function (r) { if (rejecting && r === er && q[r] === ec) return; cols[q[r]] = true; dg[r - q[r] + n - 1] = true; an[r + q[r]] = true; });
      const look = er >= 0 && ec >= 0 && (t === REJECT || t <= FORCED);
      const mk = function (arr, idx, cause) { return arr.map(function (up, i) { return { text: up ? "1" : "0", cls: (up ? "up" : "") + (look && i === idx ? (cause ? " cause" : " look") : "") }; }); };
      if (algo === "backtracking") {
        // The test compares the square with the queens above from row 1 down and stops at the
        // first that attacks it: the queens it compared are the checks this step made.
        const rows = placed.filter(function (r) { return r !== er; });
        const compared = look ? Math.min(rows.length, checksOf(k)) : 0;
        const tb = el("table", { class: "arr" });
        tb.appendChild(el("caption", {}, look ? "queens above compared with " + sqName(er, ec) + ": " + compared + " of " + rows.length : "queens above: the next square is compared with them from row 1 down"));
        const hr = el("tr", {}), dr = el("tr", {});
        rows.forEach(function (r, i) {
          hr.appendChild(el("th", { scope: "col" }, "row " + (r + 1)));
          let why = "";
          if (look && i < compared) { if (q[r] === ec) why = "column"; else if (r - q[r] === er - ec) why = "\\"; else if (r + q[r] === er + ec) why = "/"; }
          const cls = !look ? "" : i >= compared ? "skip" : rejecting && i === compared - 1 ? "cause" : "look";
          const text = "col " + (q[r] + 1) + (why ? " " + why : look && i < compared ? " ok" : "");
          const d = el("td", { class: cls }, text);
          d.setAttribute("aria-label", "row " + (r + 1) + ", column " + (q[r] + 1) + (!look ? "" : i >= compared ? ", not compared" : why ? ", attacks the square (" + why + ")" : ", compared, no attack"));
          dr.appendChild(d);
        });
        tb.appendChild(hr); tb.appendChild(dr); cons.appendChild(tb);
        return;
      }
      table("cols[col]: a queen in the column", mk(cols, ec, rejecting && rsn === 0));
      table("diag[row \u2212 col + n]: a queen on the diagonal \\", mk(dg, er - ec + n - 1, rejecting && rsn === 1));
      table("anti[row + col \u2212 1]: a queen on the anti-diagonal /", mk(an, er + ec, rejecting && rsn === 2));
      if (algo === "swap") {
        const used = new Set(placed.map(function (r) { return q[r]; }));
        const perm = placed.map(function (r) { return q[r] + 1; });
        for (let c = 0; c < n; c++) if (!used.has(c)) perm.push(c + 1);
        table("perm: the placed columns, then the unused ones", perm.map(function (c, i) { return { text: String(c), cls: i < placed.length ? "up" : "" }; }));
      }
    } else if (BITBOARDS.indexOf(algo) >= 0) {
      const r0 = er >= 0 ? er : placed.length;
      // The masks as arrays of bits (boards up to 64 wide do not fit JavaScript's 32-bit ops).
      const cm = new Array(n).fill(0), lm = new Array(n).fill(0), rm = new Array(n).fill(0);
      placed.forEach(function (r) {
        if (r >= r0) return;
        cm[q[r]] = 1;
        const l = q[r] + (r0 - r), rr = q[r] - (r0 - r);
        if (l < n) lm[l] = 1;
        if (rr >= 0) rm[rr] = 1;
      });
      const free = cm.map(function (b, c) { return b | lm[c] | rm[c] ? 0 : 1; });
      const bits = function (m, cause) { return m.map(function (b, c) { return { text: String(b), cls: (b ? "up" : "") + (rejecting && c === ec && cause ? " cause" : "") }; }); };
      if (r0 >= n) {
        // Every row has a queen: cols = all, the test that reports the solution.
        cons.appendChild(el("div", {}, "every row has a queen: cols = all, a solution"));
        table("cols", bits(new Array(n).fill(1), false));
      } else {
        cons.appendChild(el("div", {}, "masks for row " + (r0 + 1) + ", bit by column in board order (column 1 on the left)"));
        table("cols", bits(cm, rsn === 0));
        table("left: diagonals \\ coming down", bits(lm, rsn === 1));
        table("right: anti-diagonals / coming down", bits(rm, rsn === 2));
        const fr = bits(free, false);
        if (ec >= 0 && t <= FORCED) fr[ec].cls += " look";
        table("free = ~(cols | left | right)", fr);
      }
    } else if (algo === "permutations") {
      table("perm[row]: the column of each row's queen", q.map(function (c, r) { return { text: c >= 0 ? String(c + 1) : "\u00B7", cls: (c >= 0 ? "up" : "") + (rejecting && r === er ? " cause" : "") }; }));
    } else if (algo === "cp") {
      cons.appendChild(el("div", {}, "domains: the columns no queen attacks, row by row (propagation may have removed more)"));
      for (let r = 0; r < n; r++) {
        const cells = [];
        for (let c = 0; c < n; c++) {
          let ok = q[r] < 0;
          for (const p of placed) if (q[p] === c || Math.abs(p - r) === Math.abs(q[p] - c)) ok = false;
          if (q[r] === c) cells.push({ text: "Q", cls: "up" });
          else cells.push({ text: ok ? "\u2713" : "\u00B7", cls: rejecting && r === er && c === ec ? "cause" : "" });
        }
        table("row " + (r + 1), cells);
      }
    }
  }

  // Who rules (r, c) out for reason `rsn` on the board `q`: `cause` the row of the queen the
  // step names (the first in row order that attacks that way: the first a row-by-row test
  // meets; for a failed test of permutations, the partner above the queen it rejects), -1 if
  // none, and `others` the rows of every other queen that attacks the square.
  function attackers(q, r, c, rsn) {
    const way = function (p) {
      const k = q[p];
      if (k < 0 || (p === r && k === c)) return -1;
      return k === c ? 0 : p - k === r - c ? 1 : p + k === r + c ? 2 : -1;
    };
    let cause = -1;
    const others = [];
    const test = q[r] === c;
    for (let p = 0; p < n; p++) {
      const w = way(p);
      if (w < 0 || (test && p > r)) continue;
      if (cause < 0 && w === rsn) cause = p; else others.push(p);
    }
    return { cause, others, way };
  }

  // The queens on the board after k steps as tree vertices, in the order they were placed:
  // the path from the root to where the search stands.
  function pathAt(k) {
    const path = [];
    for (let v = tree.at[k]; v > 0; v = tree.parent[v]) if (tree.kind[v] !== 3) path.push(v);
    return path.reverse();
  }
  const rowByRow = algo !== "cp" && algo !== "permutations";
  // The columns a frame of a row-by-row search has still to try after `c`, in its order.
  // `above` are the columns of the rows above (row r's frame has r of them).
  function leftToTry(r, c, above) {
    const cols = [];
    if (algo === "swap") {
      // perm[r..] holds the unused columns in the order the swaps leave them.
      const perm = [];
      for (let i = 0; i < n; i++) perm.push(i);
      above.forEach(function (col, d) { const i = perm.indexOf(col, d); perm[i] = perm[d]; perm[d] = col; });
      const rest = perm.slice(r);
      return c < 0 ? rest : rest.slice(rest.indexOf(c) + 1);
    }
    const half = (algo === "mirror" || algo === "symmetry") && r === 0 ? Math.ceil(n / 2) : n;
    for (let x = c + 1; x < half; x++) {
      if (BITBOARDS.indexOf(algo) >= 0) {
        let free = true;
        above.forEach(function (col, p) { if (col === x || Math.abs(col - x) === r - p) free = false; });
        if (!free) continue;
      }
      cols.push(x);
    }
    return cols;
  }
  function callStack(k, j, t) {
    stackList.textContent = "";
    const path = pathAt(k);
    const frames = [];
    const above = [];
    path.forEach(function (v, i) {
      const r = tree.vr[v], c = tree.vc[v];
      if (algo === "cp") {
        if (tree.kind[v] === 2 && frames.length) { frames[frames.length - 1].forced.push(sqName(r, c)); return; }
        frames.push({ text: "decide " + sqName(r, c), forced: [], cls: "" });
        return;
      }
      // permutations does not recurse: its frames are the ordering's entries so far.
      let text = algo === "permutations" ? "perm[" + (r + 1) + "] = " + (c + 1) : "solve(row " + (r + 1) + "): column " + (c + 1);
      if (rowByRow) { const left = leftToTry(r, c, above.slice(0, r)); text += left.length ? "; left to try: " + left.map(function (x) { return x + 1; }).join(", ") : "; nothing left to try"; }
      frames.push({ text, cls: "" });
      above.push(c);
    });
    // The innermost call: the row being searched, when the step is about it.
    if (rowByRow && j >= 0) {
      const r = above.length, er = T.row[j], ec = T.col[j];
      let text = null;
      if (t === REJECT && er === r) { const left = leftToTry(r, ec, above); text = "solve(row " + (r + 1) + "): column " + (ec + 1) + " rejected; " + (left.length ? "left to try: " + left.map(function (x) { return x + 1; }).join(", ") : "nothing left to try"); }
      else if (t === DEAD) text = "solve(row " + (r + 1) + "): no square left, return";
      else if (t === SOLUTION || t === IMAGE || t === DUPLICATE) text = r >= n ? "solve(row " + (n + 1) + "): every row has a queen, return" : null;
      else if (t === REMOVE) text = "\u21A9 back from row " + (er + 1) + ": its queen taken off";
      if (text) frames.push({ text, cls: t === REMOVE ? "back" : "now" });
    } else if (algo === "cp" && j >= 0 && (t === REMOVE || t === DEAD)) {
      frames.push({ text: t === REMOVE ? "\u21A9 back from " + sqName(T.row[j], T.col[j]) : "\u21A9 propagation failed: back up", cls: "back" });
    }
    if (!frames.length) frames.push({ text: "solve(row 1): the first call", cls: "" });
    frames.forEach(function (f, i) {
      const li = el("li", { class: f.cls || (i === frames.length - 1 ? "now" : "") }, f.text + (f.forced && f.forced.length ? "; forced: " + f.forced.join("; ") : ""));
      stackList.appendChild(li);
    });
  }

  function ending() {
    const s = T.sols[T.len];
    if (!T.complete) return "The trace ends here (its step limit): the search goes on.";
    return "Search complete: " + (s === 0 ? "no solution" : s === 1 ? "1 solution" : s + " solutions") + " for " + n + " queens, " +
      T.nodes[T.len] + " nodes, " + T.checks[T.len] + " checks.";
  }

  function explainStep(j, b) {
    if (j < 0) return "The board is empty: the search starts at row 1.";
    if (j === T.len - 1) return ending();
    const t = T.type[j], r = T.row[j], c = T.col[j], q = b.cols;
    const by = function (f) { for (let p = 0; p < n; p++) if (q[p] >= 0 && !(p === r && q[p] === c) && f(p, q[p])) return " (the queen at " + sqName(p, q[p]) + ")"; return ""; };
    switch (t) {
      case PLACE:
        if (algo === "permutations") return "The ordering puts row " + (r + 1) + "'s queen in column " + (c + 1) + "; the test comes when every row has one.";
        return sqName(r, c) + " is attacked by no queen: place a queen there.";
      case FORCED: return "Only " + sqName(r, c) + " is left for its line: propagation places the queen.";
      case REJECT: {
        const rs = T.reason[j], who = attackers(q, r, c, rs);
        const also = who.others.length ? " Also attacked by " + (who.others.length === 1 ? "the queen" : who.others.length + " more queens") + " at " +
          who.others.map(function (p) { return sqName(p, q[p]) + " (" + REASONS[who.way(p)] + ")"; }).join(", ") + "." : "";
        if (q[r] === c) return "The test finds the queen at " + sqName(r, c) + " on a " + REASONS[rs] + " with the queen at " + (who.cause >= 0 ? sqName(who.cause, q[who.cause]) : "another") + ": reject the ordering.";
        if (rs === 0) return "Column " + (c + 1) + " is taken" + by(function (p, k) { return k === c; }) + ": reject " + sqName(r, c) + "." + also;
        if (rs === 1) return "row \u2212 col = " + (r - c) + " is taken" + by(function (p, k) { return p - k === r - c; }) + ": reject " + sqName(r, c) + "." + also;
        if (rs === 2) return "row + col = " + (r + c + 2) + " is taken" + by(function (p, k) { return p + k === r + c; }) + ": reject " + sqName(r, c) + "." + also;
        if (rs === 3) return "Propagation removed " + sqName(r, c) + " from its domain.";
        return sqName(r, c) + "'s solutions are mirror images of ones searched: skip it.";
      }
      case REMOVE: return "Back up: take the queen off " + sqName(r, c) + " and try the next square.";
      case DEAD: return r < 0 ? "Propagation left a row or column without a square: back up." : "No square is left in row " + (r + 1) + ": a dead end, back up.";
      case SOLUTION: return "All " + n + " queens are placed: a solution, " + T.cols.get(j).map(function (x) { return x + 1; }).join(" ") + ".";
      case IMAGE: return "A mirror image of the solution just found, " + T.cols.get(j).map(function (x) { return x + 1; }).join(" ") + ", counted without a search.";
      default: return "Drop " + T.cols.get(j).map(function (x) { return x + 1; }).join(" ") + ": a smaller image of it is searched.";
    }
  }

  function describe(j) {
    const t = T.type[j], r = T.row[j], c = T.col[j];
    switch (t) {
      case PLACE: return "place " + sqName(r, c);
      case FORCED: return "place " + sqName(r, c) + " (forced by propagation)";
      case REJECT: return "reject " + sqName(r, c) + ": " + REASONS[T.reason[j]];
      case REMOVE: return "back up from " + sqName(r, c);
      case DEAD: return r < 0 ? "dead end: propagation left a line empty" : "dead end: no square left in row " + (r + 1);
      case SOLUTION: return "solution " + T.cols.get(j).map(function (x) { return x + 1; }).join(" ");
      case IMAGE: return "solution " + T.cols.get(j).map(function (x) { return x + 1; }).join(" ") + " (image by symmetry)";
      default: return "drop " + T.cols.get(j).map(function (x) { return x + 1; }).join(" ") + ": a smaller image is searched";
    }
  }

  self.show = function (k) {
    k = Math.max(0, Math.min(T.len, Math.round(k) || 0));
    const j = k - 1, t = j >= 0 ? T.type[j] : -1, er = j >= 0 ? T.row[j] : -1, ec = j >= 0 ? T.col[j] : -1;
    const b = boardAt(T, k);
    // An image by symmetry (or a dropped duplicate) is not the board searched: show the one
    // the caption names.
    if (t === IMAGE || t === DUPLICATE) { b.cols = T.cols.get(j).slice(); b.forced = b.cols.map(function () { return false; }); }
    const rsn = j >= 0 ? T.reason[j] : -1;
    // The queen that causes a rejection, outlined on the board, with the line of attack drawn
    // from it to the square.
    const by = t === REJECT ? attackers(b.cols, er, ec, rsn) : null;
    const cause = by && by.cause >= 0 ? by.cause * n + b.cols[by.cause] : -1;
    if (cause >= 0) {
      const cr = by.cause, cc = b.cols[cr];
      attackLine.setAttribute("x1", cc + 0.5); attackLine.setAttribute("y1", cr + 0.5);
      attackLine.setAttribute("x2", ec + 0.5); attackLine.setAttribute("y2", er + 0.5);
      attackLine.setAttribute("class", ["column", "diagonal", "anti"][rsn]);
      lineLayer.setAttribute("data-from", (cr + 1) + "," + (cc + 1)); lineLayer.setAttribute("data-to", (er + 1) + "," + (ec + 1));
      lineLayer.style.display = "";
    } else {
      lineLayer.style.display = "none";
      lineLayer.removeAttribute("data-from"); lineLayer.removeAttribute("data-to");
    }
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const d = squares[r * n + c];
        let attacked = false;
        for (let p = 0; p < n; p++) {
          const k2 = b.cols[p];
          if (k2 < 0 || (p === r && k2 === c)) continue;
          if (k2 === c || p === r || Math.abs(p - r) === Math.abs(k2 - c)) { attacked = true; break; }
        }
        const queen = b.cols[r] === c, here = er === r && ec === c;
        d.textContent = queen ? "\u265B" : "";
        d.className = "sq " + ((r + c) % 2 === 0 ? "l" : "d") + (queen ? " q" : "") + (queen && b.forced[r] ? " forced" : "") +
          (attacked && !queen ? " att" : "") + (here && t <= FORCED ? " place" : "") + (here && t === REJECT ? " reject" : "") +
          (here && t === REMOVE ? " back" : "") + (cause === r * n + c ? " cause" : "");
        let label = sqName(r, c) + (queen ? ", queen" + (b.forced[r] ? " (forced)" : "") : attacked ? ", attacked" : ", free");
        if (here && t === REJECT) label += ", rejected now";
        if (here && t <= FORCED) label += ", just placed";
        if (cause === r * n + c) label += ", the queen that rules the square out";
        d.setAttribute("aria-label", label);
      }
    }
    caption.textContent = "Step " + k + " of " + T.len + (j >= 0 ? ": " + describe(j) : ": the start");
    explain.textContent = explainStep(j, b);
    counters.textContent = "nodes " + T.nodes[k] + " \u00B7 checks " + T.checks[k] + " \u00B7 solutions " + T.sols[k] +
      (T.complete ? "" : " \u00B7 (the start of a longer search)");
    const li = j >= 0 ? lineOf(algo, t) : 0;
    lines.forEach(function (s, i) { s.classList.toggle("on", i === li); });
    constraints(b, t, er, ec, rsn, k);
    callStack(k, j, t);
    root.classList.toggle("ended", k === T.len);
    self.k = k;
    const cur = tree.at[k];
    const w = canvas.clientWidth || 600;
    const px = (tree.x[cur] - view.x0) * view.scale;
    if (follow.checked && (px < 30 || px > w - 30)) centre(cur);
    redraw();
    return describe(Math.max(0, j));
  };
  // Where the vertex made at `step` is drawn, in the tree's CSS pixels (null if none or out of
  // view): for tests that click a node.
  self.pointOf = function (step) {
    let v = -1;
    for (let i = 1; i < tree.count; i++) if (tree.step[i] === step) { v = i; break; }
    if (v < 0) return null;
    const w = canvas.clientWidth, h = canvas.clientHeight, x = (tree.x[v] - view.x0) * view.scale;
    return x < 0 || x > w ? null : { x, y: vertexY(v, h) };
  };
  self.centreOn = function (step) {
    for (let i = 1; i < tree.count; i++) if (tree.step[i] === step) { follow.checked = false; centre(i); redraw(); return; }
  };
  self.describeAt = function (k) { return k > 0 ? describe(k - 1) : "the start"; };
  self.explainAt = function () { return explain.textContent; };
  // Initial view: the whole tree when it fits at two pixels a leaf, else its start, followed.
  const w0 = canvas.clientWidth || 600;
  if (tree.width * 2 <= w0) { view.scale = w0 / tree.width; view.x0 = 0; }
  else { view.scale = 12; view.x0 = 0; }
  return self;
}

function main() {
  const traces = TRACES.map(decode);
  const pair = traces.length > 1;
  document.documentElement.style.setProperty("--n", String(traces[0].n));
  const app = document.getElementById("app");
  const controls = el("div", { id: "controls", role: "toolbar", "aria-label": "player controls" });
  const B = function (id, text, label, key) { const b = el("button", { id, type: "button", "aria-label": label, "aria-keyshortcuts": key }, text); controls.appendChild(b); return b; };
  const back = B("back", "\u25C0 step", "previous step", "ArrowLeft");
  const play = B("play", "\u25B6 play", "play", "Space");
  const fwd = B("fwd", "step \u25B6", "next step", "ArrowRight");
  const prevPlace = B("prev-place", "\u21E4 placement", "previous placement", "Shift+N");
  const nextPlace = B("next-place", "placement \u21E5", "next placement", "N");
  const prevBack = pair ? null : B("prev-back", "\u21E4 back-up", "previous back-up", "Shift+B");
  const nextBack = pair ? null : B("next-back", "back-up \u21E5", "next back-up", "B");
  const prevSol = B("prev-solution", "\u21E4 solution", "previous solution", "Shift+S");
  const nextSol = B("next-solution", "solution \u21E5", "next solution", "S");
  const present = B("present", "presentation", "presentation mode", "P");
  present.setAttribute("aria-pressed", "false");
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const speedL = el("label", {}, "speed "); const speed = el("input", { id: "speed", type: "range", min: "0", max: reduced ? "2" : "16", value: reduced ? "2" : "4", "aria-label": "speed" }); speedL.appendChild(speed);
  const speedOut = el("output", { id: "speed-value", for: "speed" }); speedL.appendChild(speedOut); controls.appendChild(speedL);
  if (reduced) controls.appendChild(el("span", { id: "reduced-note", class: "note" }, "reduced motion: at most 4 steps a second"));
  let fold = null;
  if (!pair) {
    const fl = el("label", {}); fold = el("input", { id: "fold", type: "checkbox" }); fl.appendChild(fold); fl.appendChild(document.createTextNode(" fold rejections")); controls.appendChild(fl);
  }
  const gotoL = el("label", {}, pair ? "placement " : "go to step "); const go = el("input", { id: "goto", type: "number", min: "0", step: "1", value: "0" }); gotoL.appendChild(go); controls.appendChild(gotoL);
  const goB = el("button", { id: "go", type: "button" }, "go"); controls.appendChild(goB);
  app.appendChild(controls);
  // A button pressed with the pointer gives the focus back, so that Space then plays or pauses
  // rather than pressing that button again; from the keyboard (detail 0) it keeps the focus.
  app.addEventListener("click", function (e) {
    const b = e.target.closest && e.target.closest("button");
    if (b && e.detail > 0) b.blur();
  });
  const posL = el("label", { for: "pos", class: "sr" }, pair ? "placement" : "step");
  const pos = el("input", { id: "pos", type: "range", min: "0", value: "0" });
  app.appendChild(posL); app.appendChild(pos);
  app.appendChild(el("div", { class: "keys" }, "Keys: space play or pause \u00B7 \u2190 \u2192 step \u00B7 n next placement (shift: previous)" + (pair ? "" : " \u00B7 b next back-up") + " \u00B7 s next solution (shift: previous) \u00B7 p presentation" + " \u00B7 Home, End \u00B7 on the tree: + \u2212 zoom, 0 fit, c centre"));
  const live = el("div", { id: "live", class: "sr", role: "status", "aria-live": "polite" });
  app.appendChild(live);
  const host = el("div", { class: pair ? "players pair" : "players" });
  app.appendChild(host);

  // The position: a step of the one trace, or a number of placements for a pair.
  // A pair's last position is past both searches' last placements: each shown to its end.
  const maxPos = pair ? Math.max(traces[0].places.length, traces[1].places.length) + 1 : traces[0].len;
  pos.max = String(maxPos); go.max = String(maxPos);
  let at = -1, timer = null, lastHash = 0;
  const players = [];
  // The step a pair shows at position p: the p-th placement, and the solution it completes.
  function stepOf(T, p) {
    if (p <= 0) return 0;
    if (p > T.places.length) return T.len;
    let k = T.places[p - 1];
    while (k < T.len && (T.type[k] === SOLUTION || T.type[k] === IMAGE)) k++;
    return k;
  }
  // A pair's next (dir 1) or previous (dir -1) position where either search shows a solution.
  function seekPairSolution(dir) {
    for (let p = at + dir; p > 0 && p <= maxPos; p += dir) {
      for (const T of traces) { const k = stepOf(T, p); if (k > 0 && p <= T.places.length && (T.type[k - 1] === SOLUTION || T.type[k - 1] === IMAGE)) return p; }
    }
    return dir > 0 ? maxPos : 0;
  }
  function onJump(player, step) {
    if (!pair) { pause(); show(step); return; }
    const T = player.T;
    let lo = 0, hi = T.places.length;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (T.places[m - 1] <= step) lo = m; else hi = m - 1; }
    pause(); show(lo);
  }
  function show(p, announce) {
    // A position typed or linked as a fraction, or not a number, is rounded or ignored.
    p = Math.round(Number(p));
    if (!Number.isFinite(p)) p = Math.max(0, at);
    p = Math.max(0, Math.min(maxPos, p));
    at = p;
    const said = players.map(function (pl) { return pl.show(pair ? stepOf(pl.T, p) : p); });
    pos.value = String(p);
    pos.setAttribute("aria-valuetext", (pair ? "placement " : "step ") + p + " of " + maxPos);
    if (document.activeElement !== go) go.value = String(p);
    const now = Date.now();
    if (!timer || now - lastHash > 500) { history.replaceState(null, "", "#" + (pair ? "placement=" : "step=") + p); lastHash = now; }
    if (announce !== false && !timer) live.textContent = (pair ? "Placement " + p + ". " + players.map(function (pl, i) { return traces[i].algo + ": " + said[i]; }).join(". ") : "Step " + p + ": " + said[0] + ". " + players[0].explainAt());
  }
  // The next (dir 1) or previous (dir -1) position in `list` (sorted steps) from here.
  function seek(list, dir) {
    if (pair) return at + dir;
    let lo = 0, hi = list.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (list[m] <= at) lo = m + 1; else hi = m; }
    if (dir > 0) return lo < list.length ? list[lo] : traces[0].len;
    let i = lo - 1;
    while (i >= 0 && list[i] >= at) i--;
    return i >= 0 ? list[i] : 0;
  }
  // One step from `from` (here if not given), or with fold, past a run of rejections at once.
  function stepBy(dir, from) {
    let p = (from === undefined ? at : from) + dir;
    if (pair) return p;
    if (fold && fold.checked) {
      const T = traces[0];
      while (p > 0 && p < T.len && T.type[p - 1] === REJECT) p += dir;
    }
    return p;
  }
  // Speed position s plays 2^s steps a second, 1 to 65,536 (the whole of 10 queens in about
  // six seconds), on animation frames: each frame takes the steps its share of time is worth,
  // so every position is twice as fast as the one before. Reduced motion: at most 4 a second.
  function rate() { return Math.pow(2, Number(speed.value)); }
  function rateText() { const r = rate(); return r.toLocaleString("en") + (r === 1 ? " step" : " steps") + " a second"; }
  let budget = 0, last = 0;
  function frame(now) {
    if (!timer) return;
    // A stalled frame (a background tab) is worth at most a quarter of a second.
    if (last) budget += Math.min(250, now - last) / 1000 * rate();
    last = now;
    let p = at;
    for (; budget >= 1 && p < maxPos; budget--) p = stepBy(1, p);
    if (p !== at) show(p, false);
    if (at >= maxPos) { pause(); return; }
    timer = requestAnimationFrame(frame);
  }
  function pause() {
    if (timer) cancelAnimationFrame(timer);
    const was = !!timer;
    timer = null;
    play.textContent = "\u25B6 play"; play.setAttribute("aria-label", "play");
    if (was) show(at);
  }
  function toggle() {
    if (timer) { pause(); return; }
    if (at >= maxPos) show(0, false);
    play.textContent = "\u2759\u2759 pause"; play.setAttribute("aria-label", "pause");
    // The first step at once, the next ones at the speed chosen.
    budget = 1; last = 0;
    timer = requestAnimationFrame(frame);
  }
  function showSpeed() { speedOut.textContent = " " + rateText(); speed.setAttribute("aria-valuetext", rateText()); }
  speed.oninput = showSpeed;
  showSpeed();
  play.onclick = toggle;
  fwd.onclick = function () { pause(); show(stepBy(1)); };
  back.onclick = function () { pause(); show(stepBy(-1)); };
  nextPlace.onclick = function () { pause(); show(seek(traces[0].places, 1)); };
  prevPlace.onclick = function () { pause(); show(seek(traces[0].places, -1)); };
  if (nextBack) nextBack.onclick = function () { pause(); show(seek(traces[0].removes, 1)); };
  if (prevBack) prevBack.onclick = function () { pause(); show(seek(traces[0].removes, -1)); };
  nextSol.onclick = function () { pause(); show(pair ? seekPairSolution(1) : seek(traces[0].solutions, 1)); };
  prevSol.onclick = function () { pause(); show(pair ? seekPairSolution(-1) : seek(traces[0].solutions, -1)); };
  // Presentation: the page scaled to the window for a projector, board, code and tree on one
  // screen, the text large enough for the back of a room.
  present.onclick = function () {
    const on = document.body.classList.toggle("present");
    present.setAttribute("aria-pressed", String(on));
    window.dispatchEvent(new Event("resize"));
  };
  pos.oninput = function () { pause(); show(Number(pos.value)); };
  goB.onclick = function () { pause(); show(Number(go.value)); };
  go.onkeydown = function (e) { if (e.key === "Enter") { pause(); show(Number(go.value)); } };
  document.addEventListener("keydown", function (e) {
    const tag = e.target && e.target.tagName;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (tag === "INPUT" && (e.target.type === "number" || e.target.type === "text")) return;
    // Sliders keep their own keys (arrows, Home, End, Page Up and Down); Space and Enter toggle
    // a focused checkbox and press a focused button.
    if (tag === "INPUT" && e.target.type === "range" && /^(Arrow|Home$|End$|Page)/.test(e.key)) return;
    if ((tag === "BUTTON" || (tag === "INPUT" && e.target.type === "checkbox")) && (e.key === " " || e.key === "Enter")) return;
    let done = true;
    switch (e.key) {
      case " ": toggle(); break;
      case "ArrowRight": fwd.onclick(); break;
      case "ArrowLeft": back.onclick(); break;
      case "n": nextPlace.onclick(); break;
      case "N": prevPlace.onclick(); break;
      case "b": if (nextBack) nextBack.onclick(); break;
      case "B": if (prevBack) prevBack.onclick(); break;
      case "s": nextSol.onclick(); break;
      case "S": prevSol.onclick(); break;
      case "p": present.onclick(); break;
      case "Home": pause(); show(0); break;
      case "End": pause(); show(maxPos); break;
      default: done = false;
    }
    if (done) e.preventDefault();
  });
  function fromHash() {
    const m = /(?:step|placement)=([0-9.]+)/.exec(location.hash);
    const p = m ? Math.round(Number(m[1])) : NaN;
    return Number.isFinite(p) ? p : null;
  }
  window.addEventListener("hashchange", function () { const p = fromHash(); if (p !== null && p !== at) { pause(); show(p); } });
  traces.forEach(function (T) { players.push(Player(T, host, onJump)); });
  const start = fromHash();
  show(start === null ? 0 : start, false);
  window.nqueensPlayers = players;
  document.body.setAttribute("data-ready", "true");
}
main();
