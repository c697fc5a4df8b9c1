// Teaching with the page: what a learner reads must agree with the board and the tree, and the
// controls must do what they say from the mouse and the keyboard. Each test checks the page
// against the JSON Lines trace of the same search. Run by .ci/browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, close, page, replay, open, queens, stepShown, goTo } from "./helpers.mjs";

before(launch);
after(close);

// The tree's description of where the search stands: [row, col] from 0, or null at the root.
async function treeAt(p, which = 0) {
  await p.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  const label = await p.locator("canvas.tree").nth(which).getAttribute("aria-label");
  const m = /row (\d+), column (\d+)$/.exec(label);
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

test("cp backs up last placed first: caption, board and tree agree at every back-up", async () => {
  const cp = replay(["trace", "8", "--algo", "cp", "--format", "json"]);
  const { p, errors } = await open(page("cp8.html", ["trace", "8", "--algo", "cp", "--format", "html"]));
  const removes = cp.steps.map((s, i) => (s.event === "remove" ? i + 1 : 0)).filter((k) => k);
  assert.ok(removes.length > 900, `${removes.length} back-ups`);
  for (const k of removes.slice(0, 40)) {
    const s = cp.steps[k - 1];
    // The queen taken back is the last one placed...
    const before = cp.stacks[k - 1];
    assert.deepEqual(before[before.length - 1], [s.row - 1, s.col - 1], `step ${k}`);
    await goTo(p, k);
    assert.match(await p.textContent(".caption"), new RegExp(`back up from row ${s.row}, column ${s.col}$`));
    assert.deepEqual(await queens(p, 8), cp.boards[k], `step ${k}`);
    // ...and the tree stands on the one placed before it.
    const top = cp.stacks[k];
    assert.deepEqual(await treeAt(p), top.length ? top[top.length - 1] : null, `step ${k}`);
  }
  assert.deepEqual(errors, []);
  await p.close();
});

test("a fractional step, typed or in the address, is rounded and the player goes on", async () => {
  const eight = replay(["trace", "8", "--format", "json"]);
  const { p, errors } = await open(page("frac.html", ["trace", "8", "--format", "html"]) + "#step=0.5");
  assert.equal(await stepShown(p), 1);
  await goTo(p, "12.7");
  assert.equal(await stepShown(p), 13);
  assert.deepEqual(await queens(p, 8), eight.boards[13]);
  await p.click("#fwd");
  assert.equal(await stepShown(p), 14);
  assert.deepEqual(await queens(p, 8), eight.boards[14]);
  await p.evaluate(() => { location.hash = "#step=99.4"; });
  await p.waitForFunction(() => /^Step 99 of/.test(document.querySelector(".caption").textContent));
  assert.deepEqual(await queens(p, 8), eight.boards[99]);
  assert.deepEqual(errors, []);
  await p.close();
});

test("an image by symmetry is drawn as the solution its caption names", async () => {
  const sym = replay(["trace", "6", "--algo", "symmetry", "--format", "json"]);
  const { p, errors } = await open(page("sym6.html", ["trace", "6", "--algo", "symmetry", "--format", "html"]));
  const images = sym.steps.map((s, i) => (s.event === "solution" && s.image ? i + 1 : 0)).filter((k) => k);
  assert.ok(images.length >= 3);
  for (const k of images) {
    await goTo(p, k);
    const cols = sym.steps[k - 1].cols;
    assert.match(await p.textContent(".caption"), new RegExp(`solution ${cols.join(" ")} \\(image`));
    assert.deepEqual(await queens(p, 6), cols.map((c) => c - 1), `step ${k}`);
  }
  // A solution's masks are for no row beyond the board.
  await goTo(p, images[0] - 1);
  assert.doesNotMatch(await p.textContent(".cons"), /row 7/);
  assert.deepEqual(errors, []);
  await p.close();
});

test("the bitboard's masks never name a row beyond the board, and legends list only what is drawn", async () => {
  const bb = replay(["trace", "8", "--algo", "bitboard", "--format", "json"]);
  const { p, errors } = await open(page("bb8l.html", ["trace", "8", "--algo", "bitboard", "--format", "html"]));
  const sol = bb.steps.findIndex((s) => s.event === "solution") + 1;
  await goTo(p, sol);
  assert.doesNotMatch(await p.textContent(".cons"), /row 9/);
  assert.match(await p.textContent(".cons"), /every row has a queen/);
  assert.doesNotMatch(await p.textContent(".legend"), /forced/);
  await p.close();
  const cp = await open(page("cp6l.html", ["trace", "6", "--algo", "cp", "--format", "html"]));
  assert.match(await cp.p.textContent(".legend"), /forced by propagation/);
  await cp.p.close();
  assert.deepEqual([...errors, ...cp.errors], []);
});

test("backtracking's panel shows the queens its test compared, as many as the checks it counts", async () => {
  const eight = replay(["trace", "8", "--format", "json"]);
  const { p, errors } = await open(page("bt8c.html", ["trace", "8", "--format", "html"]));
  let seen = 0;
  for (let k = 1; k <= eight.steps.length && seen < 12; k++) {
    const s = eight.steps[k - 1];
    if (s.event !== "reject" || k < 30) continue;
    seen++;
    const compared = s.checks - eight.steps[k - 2].checks;
    await goTo(p, k);
    const cells = await p.evaluate(() => [...document.querySelectorAll(".cons td")].map((d) => d.className.trim()));
    assert.equal(cells.filter((c) => c === "look" || c === "cause").length, compared, `step ${k}`);
    assert.equal(cells.filter((c) => c === "cause").length, 1, `step ${k}`);
    assert.equal(cells.indexOf("cause"), compared - 1, `step ${k}: the last compared is the cause`);
    // No flag arrays: backtracking's pseudocode has none.
    assert.doesNotMatch(await p.textContent(".cons"), /cols\[|diag\[|anti\[/);
  }
  assert.equal(seen, 12);
  assert.deepEqual(errors, []);
  await p.close();
});

test("keys: Space plays after a click, toggles a checkbox, and the speed slider keeps Home and End", async () => {
  const { p, errors } = await open(page("keys.html", ["trace", "8", "--format", "html"]));
  await p.click("#fwd");
  await p.click("#fwd");
  assert.equal(await stepShown(p), 2);
  await p.keyboard.press(" ");
  assert.equal(await p.getAttribute("#play", "aria-label"), "pause");
  await p.keyboard.press(" ");
  assert.equal(await p.getAttribute("#play", "aria-label"), "play");
  const k = await stepShown(p);
  assert.ok(k >= 2, `${k}`);
  // A checkbox takes Space as a toggle, and nothing plays.
  await p.focus("#fold");
  await p.keyboard.press(" ");
  assert.equal(await p.isChecked("#fold"), true);
  assert.equal(await p.getAttribute("#play", "aria-label"), "play");
  await p.keyboard.press(" ");
  assert.equal(await p.isChecked("#fold"), false);
  // Home and End on the speed slider move the speed, not the trace.
  await p.focus("#speed");
  await p.keyboard.press("End");
  assert.equal(await p.inputValue("#speed"), "16");
  await p.keyboard.press("Home");
  assert.equal(await p.inputValue("#speed"), "0");
  assert.equal(await stepShown(p), k);
  assert.equal((await p.textContent("#speed-value")).trim(), "1 step a second");
  assert.deepEqual(errors, []);
  await p.close();
});

test("under reduced motion the speed stops at 4 steps a second and the page says so", async () => {
  const { p, errors } = await open(page("reduced.html", ["trace", "8", "--format", "html"]), undefined, { reducedMotion: "reduce" });
  assert.equal(await p.getAttribute("#speed", "max"), "2");
  assert.equal((await p.textContent("#speed-value")).trim(), "4 steps a second");
  assert.match(await p.textContent("#reduced-note"), /reduced motion: at most 4 steps a second/);
  assert.deepEqual(errors, []);
  await p.close();
});

// The first queen in row order on `board` (columns from 0, -1 none) that attacks (r, c) from
// another row, with how: the queen a row-by-row test meets first. Rows and columns from 0.
function firstAttacker(board, r, c, rows = board.length) {
  for (let p = 0; p < rows; p++) {
    const k = board[p];
    if (k < 0 || p === r) continue;
    if (k === c) return [p, k, "column"];
    if (p - k === r - c) return [p, k, "diagonal"];
    if (p + k === r + c) return [p, k, "anti_diagonal"];
  }
  return null;
}

test("the line of attack runs from the deciding queen to the rejected square, styled by reason", async () => {
  const eight = replay(["trace", "8", "--format", "json"]);
  const { p, errors } = await open(page("line8.html", ["trace", "8", "--format", "html"]));
  const picks = { column: [], diagonal: [], anti_diagonal: [] };
  eight.steps.forEach((s, i) => { if (s.event === "reject" && i > 40 && picks[s.reason].length < 3) picks[s.reason].push(i + 1); });
  let several = 0;
  for (const [reason, ks] of Object.entries(picks)) {
    assert.equal(ks.length, 3, reason);
    for (const k of ks) {
      const s = eight.steps[k - 1];
      const [qr, qc, how] = firstAttacker(eight.boards[k], s.row - 1, s.col - 1);
      assert.equal(how, reason, `step ${k}`);
      await goTo(p, k);
      const line = await p.evaluate(() => {
        const svg = document.querySelector("svg.attack");
        return { from: svg.getAttribute("data-from"), to: svg.getAttribute("data-to"), cls: svg.querySelector("line").getAttribute("class"), shown: getComputedStyle(svg).display !== "none" };
      });
      assert.deepEqual(line, { from: `${qr + 1},${qc + 1}`, to: `${s.row},${s.col}`, cls: { column: "column", diagonal: "diagonal", anti_diagonal: "anti" }[reason], shown: true }, `step ${k}`);
      // Every other queen that attacks the square is named too.
      const [r, c] = [s.row - 1, s.col - 1];
      const others = eight.boards[k].filter((kc, pr) => kc >= 0 && pr !== qr && pr !== r && (kc === c || Math.abs(pr - r) === Math.abs(kc - c)));
      const explain = await p.textContent(".explain");
      if (others.length) { several++; assert.match(explain, /Also attacked by/, `step ${k}`); } else assert.doesNotMatch(explain, /Also attacked/, `step ${k}`);
    }
  }
  // On a placement there is no line.
  await goTo(p, 1);
  assert.equal(await p.evaluate(() => getComputedStyle(document.querySelector("svg.attack")).display), "none");
  assert.ok(several > 0, "some rejection had several attackers");
  assert.deepEqual(errors, []);
  await p.close();
});

test("permutations names and frames the partner of the queen its test rejects", async () => {
  const perm = replay(["trace", "6", "--algo", "permutations", "--format", "json"]);
  const { p, errors } = await open(page("perm6.html", ["trace", "6", "--algo", "permutations", "--format", "html"]));
  const rejects = perm.steps.map((s, i) => (s.event === "reject" ? i + 1 : 0)).filter((k) => k).slice(0, 5);
  for (const k of rejects) {
    const s = perm.steps[k - 1];
    const [qr, qc] = firstAttacker(perm.boards[k], s.row - 1, s.col - 1, s.row - 1);
    await goTo(p, k);
    assert.match(await p.textContent(".explain"), new RegExp(`with the queen at row ${qr + 1}, column ${qc + 1}`));
    const framed = await p.evaluate(() => [...document.querySelectorAll(".player .sq")].findIndex((d) => d.classList.contains("cause")));
    assert.equal(framed, qr * 6 + qc, `step ${k}`);
    assert.equal(await p.getAttribute("svg.attack", "data-from"), `${qr + 1},${qc + 1}`);
  }
  assert.deepEqual(errors, []);
  await p.close();
});

test("the board is numbered: columns above, rows on the left", async () => {
  const { p, errors } = await open(page("nums.html", ["trace", "8", "--format", "html"]));
  const [cols, rows] = await p.evaluate(() => [".nums.cols span", ".nums.rows span"].map((s) => [...document.querySelectorAll(s)].map((e) => e.textContent)));
  const want = ["1", "2", "3", "4", "5", "6", "7", "8"];
  assert.deepEqual([cols, rows], [want, want]);
  // Each number stands over (or beside) its square.
  const sq = await p.locator(".sq").nth(8 * 2 + 5).boundingBox();
  const c6 = await p.locator(".nums.cols span").nth(5).boundingBox();
  const r3 = await p.locator(".nums.rows span").nth(2).boundingBox();
  assert.ok(Math.abs(c6.x + c6.width / 2 - (sq.x + sq.width / 2)) < 2);
  assert.ok(Math.abs(r3.y + r3.height / 2 - (sq.y + sq.height / 2)) < 2);
  assert.deepEqual(errors, []);
  await p.close();
});

test("the call stack holds a frame per queen, in the order the JSON trace placed them", async () => {
  const eight = replay(["trace", "8", "--format", "json"]);
  const { p, errors } = await open(page("stack8.html", ["trace", "8", "--format", "html"]));
  for (const k of [5, 40, 333, 2000, 9256, 15000]) {
    await goTo(p, k);
    const frames = await p.locator(".stack li").allTextContents();
    const stack = eight.stacks[k];
    for (let i = 0; i < stack.length; i++) {
      const [r, c] = stack[i];
      const left = [];
      for (let x = c + 2; x <= 8; x++) left.push(x);
      assert.equal(frames[i], `solve(row ${r + 1}): column ${c + 1}; ` + (left.length ? `left to try: ${left.join(", ")}` : "nothing left to try"), `step ${k}`);
    }
    const s = eight.steps[k - 1];
    // The tree names the same path, labelled on the canvas at every zoom.
    await p.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
    const label = await p.getAttribute("canvas.tree", "aria-label");
    const path = stack.map(([r, c]) => `(${r + 1},${c + 1})`).join(" ");
    if (stack.length) assert.ok(label.includes(`path from the root: ${path};`), `step ${k}: ${label}`);
    if (s.event === "remove") assert.equal(frames[stack.length], `\u21A9 back from row ${s.row}: its queen taken off`);
    if (s.event === "reject") assert.match(frames[stack.length], new RegExp(`^solve\\(row ${s.row}\\): column ${s.col} rejected`));
    assert.ok(frames.length <= stack.length + 1);
  }
  await p.close();
  const cp = replay(["trace", "8", "--algo", "cp", "--format", "json"]);
  const c = await open(page("stackcp.html", ["trace", "8", "--algo", "cp", "--format", "html"]));
  for (const k of [10, 77, 500]) {
    await goTo(c.p, k);
    const shown = (await c.p.locator(".stack li").allTextContents()).join("; ");
    // Every queen on the board, in placing order, decisions and those they forced.
    const names = [...shown.matchAll(/row (\d+), column (\d+)/g)].map((m) => [Number(m[1]) - 1, Number(m[2]) - 1]);
    const s = cp.steps[k - 1];
    const want = cp.stacks[k].slice();
    if (s.event === "remove") want.push([s.row - 1, s.col - 1]);
    assert.deepEqual(names, want, `cp step ${k}: ${shown}`);
  }
  assert.deepEqual([...errors, ...c.errors], []);
  await c.p.close();
});

test("the end says the search is complete and how many solutions it found", async () => {
  for (const [n, want] of [[8, "92 solutions"], [3, "no solution"], [2, "no solution"], [1, "1 solution"]]) {
    const { p, errors } = await open(page(`end${n}.html`, ["trace", String(n), "--format", "html"]));
    await p.keyboard.press("End");
    assert.match(await p.textContent(".explain"), new RegExp(`^Search complete: ${want} for ${n} queens`));
    assert.match(await p.textContent("#live"), new RegExp(`Search complete: ${want}`));
    assert.deepEqual(errors, []);
    await p.close();
  }
});

test("presentation mode fits board, words, code and tree on one screen, 1024 x 768 and 1920 x 1080", async () => {
  for (const viewport of [{ width: 1024, height: 768 }, { width: 1920, height: 1080 }]) {
    const { p, errors } = await open(page(`present${viewport.width}.html`, ["trace", "8", "--format", "html"]), viewport);
    await p.keyboard.press("p");
    assert.equal(await p.getAttribute("#present", "aria-pressed"), "true");
    await goTo(p, 500);
    await p.locator("#go").blur();
    const fit = await p.evaluate(() => {
      const inside = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth; };
      return {
        scroll: [document.documentElement.scrollWidth <= innerWidth, document.documentElement.scrollHeight <= innerHeight],
        inside: [".board", ".caption", ".explain", ".pseudo", "canvas.tree", "#controls"].map((s) => [s, inside(s)]),
        caption: parseFloat(getComputedStyle(document.querySelector(".caption")).fontSize),
        square: document.querySelector(".sq").getBoundingClientRect().width,
      };
    });
    assert.deepEqual(fit.scroll, [true, true], `${viewport.width}: no scrolling`);
    for (const [s, ok] of fit.inside) assert.ok(ok, `${viewport.width}: ${s} on screen`);
    assert.ok(fit.caption >= 18, `${viewport.width}: caption ${fit.caption} px`);
    // The board grows with the screen.
    assert.ok(fit.square >= (viewport.width > 1500 ? 60 : 40), `${viewport.width}: squares of ${fit.square} px`);
    assert.deepEqual(errors, []);
    await p.close();
  }
});

test("presentation mode side by side: each board beside its own words, nothing scrolls", async () => {
  const { p, errors } = await open(page("present-pair.html", ["trace", "8", "--format", "html", "--beside", "cp"]), { width: 1920, height: 1080 });
  await p.keyboard.press("p");
  const fit = await p.evaluate(() => {
    const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
    const boards = boxes(".bframe"), captions = boxes(".caption"), trees = boxes("canvas.tree");
    return {
      scroll: document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth,
      beside: boards.map((b, i) => b.right <= captions[i].left && captions[i].right <= (boards[i + 1] ? boards[i + 1].left : innerWidth)),
      trees: trees.map((t) => t.bottom <= innerHeight),
    };
  });
  assert.deepEqual(fit, { scroll: true, beside: [true, true], trees: [true, true] });
  assert.deepEqual(errors, []);
  await p.close();
});

test("previous solution and previous back-up, from the buttons and the keys", async () => {
  const eight = replay(["trace", "8", "--format", "json"]);
  const { p, errors } = await open(page("prev.html", ["trace", "8", "--format", "html"]));
  const last = (event, before) => { for (let i = before - 2; i >= 0; i--) if (eight.steps[i].event === event) return i + 1; return 0; };
  await p.keyboard.press("End");
  await p.keyboard.press("S");
  const sol = last("solution", eight.steps.length + 1);
  assert.equal(await stepShown(p), sol);
  assert.deepEqual(await queens(p, 8), eight.steps[sol - 1].cols.map((c) => c - 1));
  await p.click("#prev-solution");
  assert.equal(await stepShown(p), last("solution", sol));
  await p.keyboard.press("B");
  const back = last("remove", last("solution", sol));
  assert.equal(await stepShown(p), back);
  await p.click("#prev-back");
  assert.equal(await stepShown(p), last("remove", back));
  assert.deepEqual(errors, []);
  await p.close();
});

test("side by side: next solution, and both searches reach their ends", async () => {
  const { p, errors } = await open(page("pair6.html", ["trace", "6", "--format", "html", "--beside", "cp"]));
  await p.keyboard.press("s");
  // A full board in one of the two, with its solution counted.
  const boards = [await queens(p, 6, 0), await queens(p, 6, 1)];
  const counters = await p.locator(".counters").allTextContents();
  const full = boards.map((b) => b.every((c) => c >= 0));
  assert.ok(full.some((f) => f), JSON.stringify(boards));
  full.forEach((f, i) => { if (f) assert.match(counters[i], /solutions 1\b/); });
  await p.keyboard.press("End");
  const ends = await p.locator(".caption").allTextContents();
  for (const c of ends) {
    const m = /^Step (\d+) of (\d+)/.exec(c);
    assert.equal(m[1], m[2], c);
  }
  const end = await p.locator(".counters").allTextContents();
  for (const c of end) assert.match(c, /solutions 4\b/);
  assert.deepEqual(errors, []);
  await p.close();
});
