//! HTML traces: a self-contained page (no network) that plays the search with controls, and
//! draws the search tree beside the board as the lessons do, pruned branches greyed.
//!
//! The library lays the tree out and writes it as SVG; the page's small script only replays
//! the steps onto the board and colours the tree up to the current step. The page is also
//! well-formed XML, so tools can read it, and `#step=K` in its address opens it at step K.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::svg::escape;
use super::{Event, Trace};

/// The most steps a page holds: the tree then has tens of thousands of elements, about as
/// many as a browser draws without stutter.
pub const MAX_STEPS: usize = 20_000;

/// Horizontal room of a node and of a pruned branch in the tree, and the room between rows.
const NODE_DX: f64 = 14.0;
const PRUNED_DX: f64 = 7.0;
const LEVEL_DY: f64 = 40.0;

/// What a tree vertex stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Root,
    Queen,
    Forced,
    Pruned,
}

struct Vertex {
    parent: usize,
    depth: usize,
    kind: Kind,
    /// The step that made it (0 for the root).
    step: usize,
    x: f64,
    /// Set at the steps that end here: a solution, a dead end, a dropped duplicate.
    mark: Option<(&'static str, usize)>,
}

/// The search tree of a trace: a vertex per queen placed and per square rejected, laid out
/// with leaves side by side in search order and parents centred over their children.
fn tree(trace: &Trace) -> Vec<Vertex> {
    let mut vertices = vec![Vertex {
        parent: 0,
        depth: 0,
        kind: Kind::Root,
        step: 0,
        x: 0.0,
        mark: None,
    }];
    let mut path = vec![0];
    for (i, event) in trace.events.iter().enumerate() {
        let step = i + 1;
        let top = *path.last().expect("the root stays on the path");
        let child = |kind| Vertex {
            parent: top,
            depth: path.len(),
            kind,
            step,
            x: 0.0,
            mark: None,
        };
        match event {
            Event::Place { forced, .. } => {
                let kind = if *forced { Kind::Forced } else { Kind::Queen };
                vertices.push(child(kind));
                path.push(vertices.len() - 1);
            }
            Event::Reject { .. } => vertices.push(child(Kind::Pruned)),
            Event::Remove { .. } => {
                if path.len() > 1 {
                    path.pop();
                }
            }
            Event::Solution { image: false, .. } => vertices[top].mark = Some(("solution", step)),
            Event::DeadEnd { .. } => vertices[top].mark = Some(("dead", step)),
            Event::Duplicate { .. } => vertices[top].mark = Some(("duplicate", step)),
            Event::Solution { image: true, .. } => {}
        }
    }
    // Children come after their parent, so a backward pass sees all of a vertex's children
    // before it; leaves take the next free place in search order first.
    let mut next = NODE_DX;
    let mut has_children = vec![false; vertices.len()];
    for v in vertices.iter().skip(1) {
        has_children[v.parent] = true;
    }
    for (i, v) in vertices.iter_mut().enumerate() {
        if !has_children[i] {
            let dx = if v.kind == Kind::Pruned {
                PRUNED_DX
            } else {
                NODE_DX
            };
            v.x = next;
            next += dx;
        }
    }
    let mut span = vec![(f64::INFINITY, f64::NEG_INFINITY); vertices.len()];
    for i in (1..vertices.len()).rev() {
        if has_children[i] {
            vertices[i].x = (span[i].0 + span[i].1) / 2.0;
        }
        let (p, x) = (vertices[i].parent, vertices[i].x);
        span[p] = (span[p].0.min(x), span[p].1.max(x));
    }
    if has_children[0] {
        vertices[0].x = (span[0].0 + span[0].1) / 2.0;
    }
    vertices
}

/// Writes `trace` as a self-contained HTML page.
///
/// ```
/// let t = nqueens::trace::record(nqueens::algo::Algo::Backtracking, 4, 1000).unwrap();
/// let mut out = Vec::new();
/// nqueens::trace::html::write(&mut out, &t).unwrap();
/// let page = String::from_utf8(out).unwrap();
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// // Nothing is fetched: no sources, no links out.
/// assert!(!page.contains("src=") && !page.contains("https:"));
/// ```
pub fn write(out: &mut impl Write, trace: &Trace) -> io::Result<()> {
    let vertices = tree(trace);
    let width = vertices.iter().map(|v| v.x).fold(0.0, f64::max) + NODE_DX;
    let depth = vertices.iter().map(|v| v.depth).max().unwrap_or(0);
    let height = (depth as f64 + 1.0) * LEVEL_DY;
    let y = |d: usize| d as f64 * LEVEL_DY + LEVEL_DY / 2.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg id=\"tree\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" \
         height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\">"
    );
    for v in vertices.iter().skip(1) {
        let p = &vertices[v.parent];
        let class = if v.kind == Kind::Pruned {
            "e pruned"
        } else {
            "e"
        };
        let _ = writeln!(
            svg,
            "<line class=\"{class}\" data-step=\"{}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
            v.step,
            p.x,
            y(p.depth),
            v.x,
            y(v.depth)
                - if v.kind == Kind::Pruned {
                    LEVEL_DY / 2.0
                } else {
                    0.0
                },
        );
    }
    for v in &vertices {
        let (class, r) = match v.kind {
            Kind::Root => ("v root", 5.0),
            Kind::Queen => ("v", 5.0),
            Kind::Forced => ("v forced", 5.0),
            Kind::Pruned => ("v pruned", 2.5),
        };
        let yv = y(v.depth)
            - if v.kind == Kind::Pruned {
                LEVEL_DY / 2.0
            } else {
                0.0
            };
        let _ = write!(
            svg,
            "<circle class=\"{class}\" data-step=\"{}\" cx=\"{:.1}\" cy=\"{yv:.1}\" r=\"{r}\"/>",
            v.step, v.x
        );
        if let Some((mark, step)) = v.mark {
            let _ = write!(
                svg,
                "<circle class=\"m {mark}\" data-step=\"{step}\" cx=\"{:.1}\" cy=\"{yv:.1}\" r=\"8\"/>",
                v.x
            );
        }
        svg.push('\n');
    }
    svg.push_str("</svg>");
    let data = serde_json::to_string(&trace.events).map_err(io::Error::other)?;
    let title = format!(
        "{} queens, {}: {} steps{}",
        trace.n,
        trace.algo,
        trace.events.len(),
        if trace.complete {
            ""
        } else {
            " (the start of the search)"
        }
    );
    let page = PAGE
        .replace("{title}", &escape(&title))
        .replace("{n}", &trace.n.to_string())
        .replace("{tree}", &svg)
        .replace("{data}", &data);
    out.write_all(page.as_bytes())
}

/// The page: style, layout and script. Inside CDATA the script may use `<` and `&` and the
/// page stays well-formed XML; HTML parsers see the CDATA markers inside comments.
const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>{title}</title>
<style>
body { font-family: sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 10px 0; }
#main { display: flex; gap: 20px; align-items: flex-start; }
#board { display: inline-grid; grid-template-columns: repeat({n}, 44px); grid-auto-rows: 44px; border: 2px solid #555; flex: none; }
.sq { display: flex; align-items: center; justify-content: center; font-size: 30px; position: relative; }
.light { background: #f0d9b5; }
.dark { background: #b58863; }
.sq.att::after { content: ""; position: absolute; inset: 0; background: rgba(192, 57, 43, 0.35); }
.sq.cur { outline: 4px solid #27ae60; outline-offset: -4px; }
.sq.rej { outline: 4px solid #e74c3c; outline-offset: -4px; }
.sq.back { outline: 4px solid #7f8c8d; outline-offset: -4px; }
.sq.forced { color: #2962ff; }
#side { flex: 1; min-width: 0; }
#controls { margin: 10px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
button { font-size: 15px; padding: 4px 10px; }
#pos { width: 320px; }
#caption { font-size: 15px; min-height: 40px; }
#treebox { overflow: auto; max-height: 70vh; border: 1px solid #ccc; background: #fafafa; }
#tree .e { stroke: #ddd; stroke-width: 1.5; }
#tree .e.seen { stroke: #555; }
#tree .e.pruned.seen { stroke: #bbb; stroke-dasharray: 3 2; }
#tree .v { fill: #eee; stroke: #ccc; }
#tree .v.seen { fill: #27ae60; stroke: #1e8449; }
#tree .v.forced.seen { fill: #2962ff; stroke: #1c44b2; }
#tree .v.pruned.seen { fill: #bbb; stroke: #999; }
#tree .v.root { fill: #555; stroke: #555; }
#tree .v.on { stroke: #000; stroke-width: 3; }
#tree .m { fill: none; stroke: none; stroke-width: 3; }
#tree .m.seen.solution { stroke: #f1c40f; }
#tree .m.seen.dead { stroke: #e74c3c; }
#tree .m.seen.duplicate { stroke: #999; }
.legend span { margin-right: 14px; font-size: 13px; }
</style>
</head>
<body>
<h1>{title}</h1>
<div id="main">
<div>
<div id="board"></div>
<div id="controls">
<button id="back" title="one step back">&#9664;</button>
<button id="play">play</button>
<button id="fwd" title="one step forward">&#9654;</button>
<label>speed <input id="speed" type="range" min="0" max="10" value="4"/></label>
</div>
<div><input id="pos" type="range" min="0" max="0" value="0"/></div>
<div id="caption"></div>
</div>
<div id="side">
<div class="legend"><span>&#9679; green: queen placed</span><span>&#9679; blue: forced by propagation</span><span>&#9675; gold: solution</span><span>&#9675; red: dead end</span><span>grey stubs: squares rejected (pruned)</span></div>
<div id="treebox">{tree}</div>
</div>
</div>
<script>
//<![CDATA[
const N = {n};
const STEPS = {data};
const board = document.getElementById("board");
const squares = [];
for (let r = 0; r < N; r++) {
  for (let c = 0; c < N; c++) {
    const d = document.createElement("div");
    d.className = "sq " + ((r + c) % 2 === 0 ? "light" : "dark");
    board.appendChild(d);
    squares.push(d);
  }
}
// Tree elements by the step that makes them visible, to colour them step by step.
const byStep = new Map();
document.querySelectorAll("#tree [data-step]").forEach(function (el) {
  const s = Number(el.getAttribute("data-step"));
  if (!byStep.has(s)) byStep.set(s, []);
  byStep.get(s).push(el);
});
const pos = document.getElementById("pos");
pos.max = STEPS.length;
let step = 0;
let timer = null;
let lastOn = [];
function describe(e) {
  const where = "row " + e.row + " col " + e.col;
  switch (e.event) {
    case "place": return "place " + where + (e.forced ? " (forced by propagation)" : "");
    case "reject": return "reject " + where + ": " + e.reason.replace("_", " ");
    case "remove": return "back up: take the queen off " + where;
    case "dead_end": return e.row === null ? "dead end: propagation left a line empty" : "dead end: no square left in row " + e.row;
    case "solution": return "solution " + e.cols.join(" ") + (e.image ? " (image by symmetry)" : "");
    case "duplicate": return "drop " + e.cols.join(" ") + ": a smaller image is searched";
  }
  return e.event;
}
function show(target) {
  target = Math.max(0, Math.min(STEPS.length, target));
  const queens = new Array(N).fill(-1);
  const forced = new Array(N).fill(false);
  let solutions = 0, nodes = 0;
  for (let i = 0; i < target; i++) {
    const e = STEPS[i];
    if (e.event === "place") { queens[e.row] = e.col; forced[e.row] = !!e.forced; nodes++; }
    if (e.event === "remove") queens[e.row] = -1;
    if (e.event === "solution") solutions++;
  }
  const cur = target > 0 ? STEPS[target - 1] : null;
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const d = squares[r * N + c];
      let attacked = false;
      for (let q = 0; q < N; q++) {
        const k = queens[q];
        if (k < 0 || (q === r && k === c)) continue;
        if (k === c || q === r || Math.abs(q - r) === Math.abs(k - c)) attacked = true;
      }
      d.textContent = queens[r] === c ? "\u265B" : "";
      d.classList.toggle("forced", queens[r] === c && forced[r]);
      d.classList.toggle("att", attacked && queens[r] !== c);
      const here = cur && cur.row === r && cur.col === c;
      d.classList.toggle("cur", !!here && cur.event === "place");
      d.classList.toggle("rej", !!here && cur.event === "reject");
      d.classList.toggle("back", !!here && cur.event === "remove");
    }
  }
  if (target > step) {
    for (let s = step + 1; s <= target; s++) (byStep.get(s) || []).forEach(function (el) { el.classList.add("seen"); });
  } else if (target < step) {
    for (let s = target + 1; s <= step; s++) (byStep.get(s) || []).forEach(function (el) { el.classList.remove("seen"); });
  }
  lastOn.forEach(function (el) { el.classList.remove("on"); });
  // The vertex of the latest step that made one: where the search stands in the tree.
  let at = target;
  while (at > 0 && !(byStep.get(at) || []).some(function (el) { return el.classList.contains("v"); })) at--;
  lastOn = (byStep.get(at) || []).filter(function (el) { return el.classList.contains("v"); });
  lastOn.forEach(function (el) { el.classList.add("on"); });
  if (lastOn.length > 0) {
    const box = document.getElementById("treebox");
    const cx = Number(lastOn[0].getAttribute("cx"));
    if (cx < box.scrollLeft + 40 || cx > box.scrollLeft + box.clientWidth - 40) box.scrollLeft = cx - box.clientWidth / 2;
  }
  step = target;
  pos.value = String(step);
  document.getElementById("caption").textContent =
    "step " + step + " of " + STEPS.length + (cur ? " \u00b7 " + describe(cur) : "") +
    " \u00b7 nodes " + nodes + " \u00b7 solutions " + solutions;
}
function delay() { return 1000 / Math.pow(2, Number(document.getElementById("speed").value)); }
function tick() {
  if (step >= STEPS.length) { pause(); return; }
  show(step + 1);
  timer = setTimeout(tick, delay());
}
function pause() { if (timer) clearTimeout(timer); timer = null; document.getElementById("play").textContent = "play"; }
document.getElementById("play").onclick = function () {
  if (timer) { pause(); return; }
  if (step >= STEPS.length) show(0);
  document.getElementById("play").textContent = "pause";
  tick();
};
document.getElementById("fwd").onclick = function () { pause(); show(step + 1); };
document.getElementById("back").onclick = function () { pause(); show(step - 1); };
pos.oninput = function () { pause(); show(Number(pos.value)); };
const start = /step=(\d+)/.exec(location.hash);
show(start ? Number(start[1]) : 0);
//]]>
</script>
</body>
</html>
"##;
