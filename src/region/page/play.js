// The region puzzle player. PUZZLE (written by src/region/html.rs) holds the size, each
// cell's region, the regions' letters and tints, the board's marks (from 0) and the rating.
// The rules of the hint are those of src/region/rate.rs, in the same order and with the same
// words: the browser tests compare the two step by step (tests/browser/regions.test.mjs).
"use strict";
(function () {
  const n = PUZZLE.n;
  const region = PUZZLE.regions;
  const labels = PUZZLE.labels;
  const EMPTY = 0, CROSS = 1, QUEEN = 2;
  const ROW = 0, COL = 1, REGION = 2;
  const rowOf = (i) => Math.floor(i / n);
  const colOf = (i) => i % n;
  const where = (i) => `row ${rowOf(i) + 1} column ${colOf(i) + 1}`;

  // The cells of each unit, row by row.
  const units = [[], [], []];
  for (let i = 0; i < n; i++) {
    units[ROW].push([]);
    units[COL].push([]);
    units[REGION].push([]);
  }
  for (let i = 0; i < n * n; i++) {
    units[ROW][rowOf(i)].push(i);
    units[COL][colOf(i)].push(i);
    units[REGION][region[i]].push(i);
  }
  const unitOf = (kind, i) => (kind === ROW ? rowOf(i) : kind === COL ? colOf(i) : region[i]);
  function unitName(kind, i) {
    if (kind === ROW) return `row ${i + 1}`;
    if (kind === COL) return `column ${i + 1}`;
    return `region ${labels[i]}`;
  }
  function unitNames(kind, list) {
    if (list.length === 1) return unitName(kind, list[0]);
    const ids = list.map((i) => (kind === REGION ? labels[i] : String(i + 1)));
    return `${["rows", "columns", "regions"][kind]} ${ids.join(", ")}`;
  }

  // The cells a queen on cell q rules out, whether open or not: its row, column, region and
  // the cells around it, not the queen's own cell.
  function ruledOut(q) {
    const out = new Uint8Array(n * n);
    const r = rowOf(q), c = colOf(q);
    for (const i of units[COL][c]) out[i] = 1;
    for (const i of units[REGION][region[q]]) out[i] = 1;
    for (const i of units[ROW][r]) out[i] = 1;
    for (const dr of [-1, 1]) {
      if (r + dr < 0 || r + dr >= n) continue;
      for (let dc = -1; dc <= 1; dc++) if (c + dc >= 0 && c + dc < n) out[(r + dr) * n + c + dc] = 1;
    }
    out[q] = 0;
    return out;
  }

  // The first rule that `queens` (cells, in the order placed) break, as nqueens::region::verify
  // words it, with the queens that break it; null if none (too few queens is no break here).
  function broken(queens) {
    const first = (kind) => {
      const seen = new Map();
      for (const q of queens) {
        const u = unitOf(kind, q);
        if (seen.has(u)) return [u, [seen.get(u), q]];
        seen.set(u, q);
      }
      return null;
    };
    let b = first(ROW);
    if (b) return { message: `two queens in row ${b[0] + 1}: one queen per row`, cells: b[1] };
    b = first(COL);
    if (b) return { message: `two queens in column ${b[0] + 1}: one queen per column`, cells: b[1] };
    b = first(REGION);
    if (b) return { message: `two queens in region ${labels[b[0]]}: one queen per region`, cells: b[1] };
    for (let x = 0; x < queens.length; x++) {
      for (let y = x + 1; y < queens.length; y++) {
        const a = queens[x], o = queens[y];
        if (Math.abs(rowOf(a) - rowOf(o)) <= 1 && Math.abs(colOf(a) - colOf(o)) <= 1) {
          const [p, s] = a < o ? [a, o] : [o, a];
          return {
            message: `the queens at ${where(p)} and ${where(s)} touch: no two queens may touch, diagonally included`,
            cells: [p, s],
          };
        }
      }
    }
    return null;
  }

  // The exact solver (src/region/solve.rs): does some solution keep these queens and avoid
  // these crosses? Fills the unit with the fewest open cells first; null past `budget` cells
  // tried (a grid no one plays), which the hint takes as "don't know" and goes on.
  function solvable(mark, queens, budget = 2000000) {
    const used = [new Uint8Array(n), new Uint8Array(n), new Uint8Array(n)];
    const place = (open, used, q) => {
      const out = ruledOut(q);
      for (let i = 0; i < n * n; i++) if (out[i]) open[i] = 0;
      open[q] = 0;
      used[ROW][rowOf(q)] = 1;
      used[COL][colOf(q)] = 1;
      used[REGION][region[q]] = 1;
    };
    const start = new Uint8Array(n * n);
    for (let i = 0; i < n * n; i++) start[i] = mark[i] === CROSS ? 0 : 1;
    for (const q of queens) {
      if (!start[q]) return false;
      place(start, used, q);
    }
    let nodes = 0;
    function go(open, used, placed) {
      if (placed === n) return true;
      let best = null, fewest = Infinity;
      for (const kind of [ROW, COL, REGION]) {
        for (let u = 0; u < n && fewest > 0; u++) {
          if (used[kind][u]) continue;
          const cells = units[kind][u].filter((i) => open[i]);
          if (cells.length < fewest) { fewest = cells.length; best = cells; }
        }
      }
      if (fewest === 0) return false;
      for (const q of best) {
        if (++nodes > budget) return null;
        const o = open.slice();
        const s = used.map((a) => a.slice());
        place(o, s, q);
        const found = go(o, s, placed + 1);
        if (found !== false) return found;
      }
      return false;
    }
    return go(start, used, queens.length);
  }

  // The rating solver's next deduction from the marks (nqueens::region::rate, Rater::next_step):
  // { rule, queens, crosses, reason } (cells row by row), { stuck: why } or { solved: true }.
  function nextStep(mark, queens) {
    const open = new Uint8Array(n * n);
    for (let i = 0; i < n * n; i++) open[i] = mark[i] === EMPTY ? 1 : 0;
    const b = broken(queens);
    if (b) return { stuck: `the queens on the board break a rule: ${b.message}` };
    if (queens.length === n) return { solved: true };
    const has = [new Uint8Array(n), new Uint8Array(n), new Uint8Array(n)];
    for (const q of queens) for (const kind of [ROW, COL, REGION]) has[kind][unitOf(kind, q)] = 1;
    const free = (kind) => [...Array(n).keys()].filter((u) => !has[kind][u]);
    const openOf = (kind, u) => units[kind][u].filter((i) => open[i]);
    const openIn = (flags) => {
      const cells = [];
      for (let i = 0; i < n * n; i++) if (flags[i] && open[i]) cells.push(i);
      return cells;
    };

    for (const q of queens) {
      const crosses = openIn(ruledOut(q));
      if (crosses.length) {
        return {
          rule: "around", queens: [], crosses,
          reason: `the queen at ${where(q)} rules out its row, column, region and the cells around it`,
        };
      }
    }
    for (const kind of [ROW, COL, REGION]) {
      for (const u of free(kind)) {
        if (!openOf(kind, u).length) {
          return { stuck: `${unitName(kind, u)} has no open cell left: the marks leave no solution` };
        }
      }
    }

    function lastCell() {
      for (const kind of [REGION, ROW, COL]) {
        for (const u of free(kind)) {
          const cells = openOf(kind, u);
          if (cells.length === 1) {
            return {
              rule: "last-cell", queens: cells, crosses: [],
              reason: `${unitName(kind, u)} has one open cell left: ${where(cells[0])}`,
            };
          }
        }
      }
      return null;
    }

    // k units of one kind whose open cells lie in k units of another: those k units' queens
    // are the others' queens, so the others' cells outside the first k are crossed out.
    function confinement(smallest, largest, rule) {
      const pairs = [[REGION, ROW], [REGION, COL], [ROW, REGION], [COL, REGION]];
      for (let k = smallest; k <= largest; k++) {
        for (const [ak, bk] of pairs) {
          const aFree = free(ak), bFree = free(bk);
          if (k * 2 > aFree.length) continue;
          const index = new Map(bFree.map((u, j) => [u, j]));
          // The units of the other kind (as indices into bFree, ascending) that each unit's
          // open cells meet.
          const spans = aFree.map((a) => {
            const set = new Set();
            for (const i of openOf(ak, a)) {
              const j = index.get(unitOf(bk, i));
              if (j !== undefined) set.add(j);
            }
            return [...set].sort((x, y) => x - y);
          });
          const chosen = [];
          const groups = (from, span) => {
            if (chosen.length === k) {
              if (span.length !== k) return null;
              const inside = new Uint8Array(n * n);
              for (const j of chosen) for (const i of units[ak][aFree[j]]) inside[i] = 1;
              const outside = new Uint8Array(n * n);
              for (const j of span) for (const i of units[bk][bFree[j]]) if (!inside[i]) outside[i] = 1;
              const crosses = openIn(outside);
              if (!crosses.length) return null;
              const a = unitNames(ak, chosen.map((j) => aFree[j]));
              const bn = unitNames(bk, span.map((j) => bFree[j]));
              const reason = k === 1
                ? `the open cells of ${a} lie in ${bn} only: the queen of ${bn} is the queen of ${a}, so its other cells are crossed out`
                : `the open cells of ${a} lie in ${bn} only: their queens are the queens of ${bn}, so the other cells there are crossed out`;
              return { rule, queens: [], crosses, reason };
            }
            for (let j = from; j < aFree.length; j++) {
              if (spans[j].length > k) continue;
              const wider = [...new Set([...span, ...spans[j]])].sort((x, y) => x - y);
              if (wider.length > k) continue;
              chosen.push(j);
              const step = groups(j + 1, wider);
              chosen.pop();
              if (step) return step;
            }
            return null;
          };
          const step = groups(0, []);
          if (step) return step;
        }
      }
      return null;
    }

    function wouldEmpty() {
      const list = [];
      for (const kind of [ROW, COL, REGION]) {
        for (const u of free(kind)) list.push([kind, u, openOf(kind, u)]);
      }
      for (let i = 0; i < n * n; i++) {
        if (!open[i]) continue;
        const ruled = ruledOut(i);
        for (const [kind, u, cells] of list) {
          // The units of the cell itself get their queen from it.
          if (cells.includes(i)) continue;
          if (cells.every((x) => ruled[x])) {
            return {
              rule: "would-empty", queens: [], crosses: [i],
              reason: `a queen at ${where(i)} would leave ${unitName(kind, u)} no open cell`,
            };
          }
        }
      }
      return null;
    }

    for (const rule of [lastCell, () => confinement(1, 1, "confined"),
      () => confinement(2, MAX_GROUP, "pigeonhole"), wouldEmpty]) {
      const step = rule();
      if (step) return step;
    }
    return { stuck: "no rule applies: the puzzle needs a guess from here" };
  }
  // The largest group the pigeonhole rule looks at, as in rate.rs.
  const MAX_GROUP = 4;

  // What a hint says: the exact solver first, so that a wrong mark is reported as such and
  // not built on (nqueens::region::hint).
  function hint(mark, queens) {
    if (solvable(mark, queens) === false) {
      return { stuck: "the queens and crosses on the board leave no solution" };
    }
    return nextStep(mark, queens);
  }

  // ---- The game: marks, the history for undo, the page. ----
  let mark = new Uint8Array(n * n);
  let queens = [];
  for (const [r, c] of PUZZLE.queens) { mark[r * n + c] = QUEEN; queens.push(r * n + c); }
  for (const [r, c] of PUZZLE.crosses) mark[r * n + c] = CROSS;
  const startMark = mark.slice(), startQueens = queens.slice();
  const history = [];
  let shown = null; // the hint on show: { step, cells flags }
  let bad = new Set(); // the queens a check found breaking a rule
  let cur = 0; // the cell with the keyboard focus

  const el = (tag, attrs = {}, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const app = document.getElementById("app");
  document.documentElement.style.setProperty("--n", n);
  const rating = el("p", { class: "rating" }, `Rated ${PUZZLE.rating}.`);
  const layout = el("div", { class: "play" });
  const grid = el("table", {
    role: "grid", id: "grid",
    "aria-label": `The grid, ${n} by ${n}: arrows move, Q queen, X cross, Delete clears`,
    "aria-describedby": "keys",
  });
  const tbody = el("tbody");
  grid.append(tbody);
  const tds = [];
  for (let r = 0; r < n; r++) {
    const tr = el("tr", { role: "row" });
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      const g = region[i];
      const td = el("td", { role: "gridcell", tabindex: "-1", "data-row": r + 1, "data-col": c + 1 });
      td.style.background = PUZZLE.tints[g];
      const sides = [];
      if (r === 0 || region[i - n] !== g) sides.push("bt");
      if (c === n - 1 || region[i + 1] !== g) sides.push("br");
      if (r === n - 1 || region[i + n] !== g) sides.push("bb");
      if (c === 0 || region[i - 1] !== g) sides.push("bl");
      td.dataset.sides = sides.join(" ");
      td.append(el("span", { class: "lbl", "aria-hidden": "true" }, labels[g]));
      td.append(el("span", { class: "mk", "aria-hidden": "true" }));
      tr.append(td);
      tds.push(td);
    }
    tbody.append(tr);
  }
  const side = el("div", { class: "side" });
  const tools = el("div", { class: "tools" });
  const button = (id, text, key, act) => {
    const b = el("button", { id, type: "button", "aria-keyshortcuts": key }, text);
    b.addEventListener("click", act);
    tools.append(b);
    return b;
  };
  button("queen", "Queen (Q)", "Q", () => { set(cur, QUEEN); tds[cur].focus(); });
  button("cross", "Cross (X)", "X", () => { set(cur, CROSS); tds[cur].focus(); });
  button("clear", "Clear (Del)", "Delete", () => { set(cur, EMPTY); tds[cur].focus(); });
  button("undo", "Undo (U)", "U Control+Z", undo);
  button("check", "Check (C)", "C", check);
  button("hint", "Hint (H)", "H", showHint);
  button("apply", "Apply hint (A)", "A", applyHint);
  button("restart", "Restart", "", restart);
  const count = el("p", { class: "count", id: "count" });
  const msg = el("p", { class: "msg", id: "msg", role: "status", "aria-live": "polite" });
  const keys = el("p", { class: "keys", id: "keys" },
    "Click a cell: empty, cross, queen, empty again. Keys: arrows move (Home, End, Ctrl+Home, " +
    "Ctrl+End), Q queen, X cross, Space or Enter as a click, Delete or Backspace clears, U or " +
    "Ctrl+Z undoes, C checks, H gives a hint (the next deduction a person makes, with its " +
    "reason), A applies it.");
  side.append(tools, count, msg, keys);
  layout.append(grid, side);
  app.append(rating, layout);

  function draw() {
    const hintAt = shown ? shown.cells : null;
    for (let i = 0; i < n * n; i++) {
      const td = tds[i];
      const m = mark[i];
      const classes = [td.dataset.sides];
      let glyph = m === QUEEN ? "\u265B" : m === CROSS ? "\u00D7" : "";
      let words = m === QUEEN ? ", queen" : m === CROSS ? ", crossed out" : "";
      if (hintAt && hintAt.get(i)) {
        const what = hintAt.get(i);
        classes.push(what === QUEEN ? "hint-queen" : "hint-cross");
        if (m === EMPTY) glyph = what === QUEEN ? "\u2655" : "\u00D7";
        words += what === QUEEN ? ", hint: a queen here" : ", hint: cross this out";
      }
      if (bad.has(i)) {
        classes.push("bad");
        words += ", breaks a rule";
      }
      if (m === QUEEN) classes.push("q");
      if (m === CROSS) classes.push("x");
      td.className = classes.join(" ");
      td.firstChild.nextSibling.textContent = glyph;
      td.setAttribute("aria-label", `row ${rowOf(i) + 1}, column ${colOf(i) + 1}, region ${labels[region[i]]}${words}`);
      td.tabIndex = i === cur ? 0 : -1;
    }
    count.textContent = `Queens: ${queens.length} of ${n}.`;
  }

  function say(text) {
    msg.textContent = text;
  }

  function remember() {
    history.push({ mark: mark.slice(), queens: queens.slice() });
    shown = null;
    bad = new Set();
  }

  // Puts `what` on cell i (a queen again, or a cross again, clears it) as one undoable move.
  function set(i, what) {
    if (mark[i] === what) what = EMPTY;
    if (mark[i] === EMPTY && what === EMPTY) return;
    remember();
    if (mark[i] === QUEEN) queens = queens.filter((q) => q !== i);
    mark[i] = what;
    if (what === QUEEN) queens.push(i);
    draw();
    const name = `row ${rowOf(i) + 1}, column ${colOf(i) + 1}`;
    if (queens.length === n && !broken(queens)) {
      say(`Solved: a queen in every row, column and region, and no two touch. (${name})`);
    } else {
      say(what === QUEEN ? `Queen on ${name}.` : what === CROSS ? `Cross on ${name}.` : `Cleared ${name}.`);
    }
  }

  function undo() {
    const last = history.pop();
    if (!last) {
      say("Nothing to undo.");
      return;
    }
    mark = last.mark;
    queens = last.queens;
    shown = null;
    bad = new Set();
    draw();
    say("Undone.");
  }

  function restart() {
    remember();
    mark = startMark.slice();
    queens = startQueens.slice();
    draw();
    say("Back to the start (Undo takes you back).");
  }

  function check() {
    shown = null;
    const b = broken(queens);
    bad = new Set(b ? b.cells : []);
    draw();
    if (b) {
      say(`Check: ${b.message}.`);
    } else if (queens.length === n) {
      say("Check: solved: a queen in every row, column and region, and no two touch.");
    } else if (solvable(mark, queens) === false) {
      say("Check: no rule is broken, but the queens and crosses leave no solution: some queen or cross is wrong.");
    } else {
      say(`Check: no rule is broken so far, ${queens.length} of ${n} queens.`);
    }
  }

  function showHint() {
    bad = new Set();
    const step = hint(mark, queens);
    if (step.rule) {
      const cells = new Map();
      for (const i of step.crosses) cells.set(i, CROSS);
      for (const i of step.queens) cells.set(i, QUEEN);
      shown = { step, cells };
      draw();
      say(`Hint (${step.rule}): ${step.reason}.`);
    } else {
      shown = null;
      draw();
      say(step.solved ? "No hint: the grid is solved." : `No hint: ${step.stuck}.`);
    }
    return step;
  }

  function applyHint() {
    const step = shown ? shown.step : showHint();
    if (!step.rule) return;
    remember();
    for (const i of step.crosses) mark[i] = CROSS;
    for (const i of step.queens) { mark[i] = QUEEN; queens.push(i); }
    draw();
    const what = [];
    if (step.queens.length) what.push(`a queen on ${where(step.queens[0])}`);
    if (step.crosses.length) what.push(`${step.crosses.length} cross${step.crosses.length > 1 ? "es" : ""}`);
    say(queens.length === n && !broken(queens)
      ? "Applied; solved: a queen in every row, column and region, and no two touch."
      : `Applied (${step.rule}): ${what.join(" and ")}.`);
  }

  function focusCell(i) {
    cur = i;
    for (const td of tds) td.tabIndex = -1;
    tds[i].tabIndex = 0;
    tds[i].focus();
  }

  tds.forEach((td, i) => {
    td.addEventListener("click", () => {
      focusCell(i);
      set(i, mark[i] === EMPTY ? CROSS : mark[i] === CROSS ? QUEEN : EMPTY);
    });
    td.addEventListener("focus", () => { cur = i; });
  });

  grid.addEventListener("keydown", (e) => {
    const r = rowOf(cur), c = colOf(cur);
    let to = null;
    if (e.key === "ArrowUp") to = r > 0 ? cur - n : cur;
    else if (e.key === "ArrowDown") to = r < n - 1 ? cur + n : cur;
    else if (e.key === "ArrowLeft") to = c > 0 ? cur - 1 : cur;
    else if (e.key === "ArrowRight") to = c < n - 1 ? cur + 1 : cur;
    else if (e.key === "Home") to = e.ctrlKey ? 0 : r * n;
    else if (e.key === "End") to = e.ctrlKey ? n * n - 1 : r * n + n - 1;
    else if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      set(cur, mark[cur] === EMPTY ? CROSS : mark[cur] === CROSS ? QUEEN : EMPTY);
      return;
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      if (mark[cur] !== EMPTY) set(cur, EMPTY);
      return;
    } else if (e.key === "q" || e.key === "Q") {
      set(cur, QUEEN);
      return;
    } else if (e.key === "x" || e.key === "X") {
      set(cur, CROSS);
      return;
    }
    if (to !== null) {
      e.preventDefault();
      focusCell(to);
    }
  });

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.metaKey) return;
    if (e.ctrlKey) {
      if (e.key === "z" || e.key === "Z") { e.preventDefault(); undo(); }
      return;
    }
    const k = e.key.toLowerCase();
    if (k === "u") undo();
    else if (k === "c") check();
    else if (k === "h") showHint();
    else if (k === "a") applyHint();
  });

  function size() {
    const room = Math.min(window.innerWidth - 40, 720);
    const cell = Math.max(18, Math.min(56, Math.floor(room / n)));
    document.documentElement.style.setProperty("--cell", `${cell}px`);
  }
  window.addEventListener("resize", size);
  size();
  draw();
  say(queens.length || PUZZLE.crosses.length
    ? "The game goes on from the marks given."
    : "Tab to the grid, then use the arrows and Q, X, Delete; or click the cells.");
  document.body.dataset.ready = "true";
})();
