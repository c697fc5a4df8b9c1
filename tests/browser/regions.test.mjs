// The region puzzle page (`nqueens region generate N --format html`, `region draw --format
// html`) in headless Chromium: its hints are the Rust rating solver's deductions, step by step,
// on many generated puzzles; its check names the rule `nqueens region verify` names; mouse,
// keyboard, undo, and an axe-core check. Run by .ci/browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, close, axePath, open } from "./helpers.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.NQUEENS_BIN || join(root, "target/debug/nqueens");
const dir = mkdtempSync(join(tmpdir(), "nqueens-regions-"));

before(launch);
after(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

// The binary's output for `args`, with `input` on stdin; a non-zero exit is not an error here
// (`rate --hint` exits 1 when stuck), its output is what counts.
function run(args, input = "") {
  try {
    return execFileSync(bin, args, { input, maxBuffer: 64 << 20, stdio: "pipe" }).toString();
  } catch (e) {
    if (e.stdout && e.status === 1) return e.stdout.toString();
    throw e;
  }
}

// A page playing `board` (any form `region draw` reads).
function playPage(name, board) {
  const file = join(dir, name);
  writeFileSync(file, run(["region", "draw", "--format", "html"], board));
  return "file://" + file;
}

// The hint on show: the message and the cells it marks, [row, col] from 0, row by row.
async function shownHint(p) {
  return p.evaluate(() => {
    const cells = (cls) => [...document.querySelectorAll(`#grid td.${cls}`)]
      .map((td) => [Number(td.dataset.row) - 1, Number(td.dataset.col) - 1]);
    return {
      msg: document.querySelector("#msg").textContent,
      queens: cells("hint-queen"),
      crosses: cells("hint-cross"),
    };
  });
}

// The text form of `json` (a generated puzzle) with queens and crosses, [row, col] from 0, in
// the order given.
function withMarks(json, queens, crosses = []) {
  const lines = json.regions.map((r) => r + "\n").join("");
  return lines + queens.map(([r, c]) => `q ${r + 1} ${c + 1}\n`).join("") +
    crosses.map(([r, c]) => `x ${r + 1} ${c + 1}\n`).join("");
}

async function focusCell(p, r, c) {
  await p.focus(`#grid td[data-row="${r + 1}"][data-col="${c + 1}"]`);
}

test("the hints are the rating solver's deductions, step by step, on generated puzzles", async () => {
  const puzzles = [];
  for (const [n, count, seed] of [[5, 8, 1], [6, 8, 2], [7, 8, 3], [8, 8, 4], [9, 8, 5], [10, 5, 6], [11, 4, 7], [12, 3, 8]]) {
    const lines = run(["region", "generate", String(n), "--count", String(count), "--seed", String(seed), "-j", "1", "--format", "json"]);
    for (const line of lines.trim().split("\n")) puzzles.push(line);
  }
  const uses = {};
  let stuck = 0, steps = 0;
  for (const [k, line] of puzzles.entries()) {
    const rating = JSON.parse(run(["region", "rate", "--json"], line));
    const { p, errors } = await open(playPage(`hints${k}.html`, line));
    for (const [s, step] of rating.steps.entries()) {
      await p.keyboard.press("h");
      const shown = await shownHint(p);
      const where = `puzzle ${k + 1} (${line}), step ${s + 1}`;
      assert.equal(shown.msg, `Hint (${step.rule}): ${step.reason}.`, where);
      assert.deepEqual(shown.queens, step.queens, where);
      assert.deepEqual(shown.crosses, step.crosses, where);
      await p.keyboard.press("a");
      uses[step.rule] = (uses[step.rule] || 0) + 1;
      steps++;
    }
    await p.keyboard.press("h");
    const end = (await shownHint(p)).msg;
    if (rating.stuck) {
      stuck++;
      assert.equal(end, `No hint: ${rating.stuck}.`, `puzzle ${k + 1}`);
    } else {
      assert.equal(end, "No hint: the grid is solved.", `puzzle ${k + 1}`);
    }
    assert.deepEqual(errors, []);
    await p.close();
  }
  // Every rule was compared, and the end where no rule applies.
  for (const rule of ["around", "last-cell", "confined", "pigeonhole", "would-empty"]) {
    assert.ok(uses[rule] >= 3, `${rule}: ${uses[rule]} steps of ${steps}`);
  }
  assert.ok(stuck >= 1, `${stuck} puzzles need guessing`);
  assert.ok(puzzles.length >= 50, `${puzzles.length} puzzles`);
});

test("a hint from a game in progress is `rate --hint`'s, and a wrong mark is caught first", async () => {
  const lines = run(["region", "generate", "8", "--count", "6", "--seed", "11", "-j", "1", "--format", "json"]).trim().split("\n");
  for (const [k, line] of lines.entries()) {
    const json = JSON.parse(line);
    const solution = json.solution.map((c, r) => [r, c - 1]);
    // Queens placed by the keyboard in an order of their own (rows 7, 2, 4), then a cross on
    // a cell no solution uses, or (every other puzzle) on the solution's queen of row 1.
    const placed = [solution[6], solution[1], solution[3]];
    const free = [...Array(64).keys()].map((i) => [Math.floor(i / 8), i % 8])
      .find(([r, c]) => c !== solution[r][1] && placed.every(([qr, qc]) => Math.abs(qr - r) > 1 || Math.abs(qc - c) > 1)
        && !placed.some(([qr, qc]) => qr === r || qc === c));
    const cross = k % 2 ? solution[0] : free;
    const { p, errors } = await open(playPage(`progress${k}.html`, line));
    for (const [r, c] of placed) {
      await focusCell(p, r, c);
      await p.keyboard.press("q");
    }
    await focusCell(p, cross[0], cross[1]);
    await p.keyboard.press("x");
    const expected = JSON.parse(run(["region", "rate", "--hint", "--json"], withMarks(json, placed, [cross])));
    await p.keyboard.press("h");
    const shown = await shownHint(p);
    if (expected.step) {
      assert.equal(shown.msg, `Hint (${expected.step.rule}): ${expected.step.reason}.`, `puzzle ${k + 1}`);
      assert.deepEqual(shown.crosses, expected.step.crosses);
      assert.deepEqual(shown.queens, expected.step.queens);
    } else {
      assert.equal(shown.msg, `No hint: ${expected.stuck}.`, `puzzle ${k + 1}`);
    }
    if (k % 2) assert.match(shown.msg, /leave no solution/);
    assert.deepEqual(errors, []);
    await p.close();
  }
});

test("check names the rule `region verify` names, and marks the queens that break it", async () => {
  const line = run(["region", "generate", "7", "--seed", "21", "--format", "json"]).trim();
  const json = JSON.parse(line);
  const sol = json.solution.map((c, r) => [r, c - 1]);
  const cases = [
    [[0, 0], [0, 3]],                       // a row
    [[0, 2], [4, 2]],                       // a column
    [[2, 2], [3, 3]],                       // touching (and maybe a region)
    sol.slice(0, 4),                        // nothing broken
    sol,                                    // solved
  ];
  // Two queens of one region, apart in rows and columns and not touching.
  const cells = [...Array(49).keys()].map((i) => [Math.floor(i / 7), i % 7]);
  const regionOf = ([r, c]) => json.regions[r][c];
  outer: for (const a of cells) {
    for (const b of cells) {
      if (a[0] + 1 < b[0] && Math.abs(a[1] - b[1]) > 1 && regionOf(a) === regionOf(b)) {
        cases.push([a, b]);
        break outer;
      }
    }
  }
  assert.equal(cases.length, 6);
  for (const [k, queens] of cases.entries()) {
    const { p, errors } = await open(playPage(`check${k}.html`, line));
    for (const [r, c] of queens) {
      // Two clicks: a cross, then a queen.
      const td = `#grid td[data-row="${r + 1}"][data-col="${c + 1}"]`;
      await p.click(td);
      await p.click(td);
    }
    await p.keyboard.press("c");
    const msg = await p.textContent("#msg");
    const verdict = run(["region", "verify"], withMarks(json, queens)).trim();
    if (verdict.startsWith("invalid: ")) {
      const rule = verdict.slice("invalid: ".length);
      if (/queen\(s\), but/.test(rule)) {
        assert.equal(msg, `Check: no rule is broken so far, ${queens.length} of 7 queens.`);
      } else {
        assert.equal(msg, `Check: ${rule}.`, `case ${k}`);
        assert.equal(await p.locator("#grid td.bad").count(), 2);
        assert.match(await p.getAttribute("#grid td.bad", "aria-label"), /breaks a rule$/);
      }
    } else {
      assert.equal(verdict, "ok");
      assert.equal(msg, "Check: solved: a queen in every row, column and region, and no two touch.");
    }
    assert.deepEqual(errors, []);
    await p.close();
  }
});

test("keys move, mark, clear and undo; the cells' names say what is on them", async () => {
  const line = run(["region", "generate", "6", "--seed", "3", "--format", "json"]).trim();
  const json = JSON.parse(line);
  const { p, errors } = await open(playPage("keys.html", line));
  const label = (r, c) => p.getAttribute(`#grid td[data-row="${r}"][data-col="${c}"]`, "aria-label");
  const focused = () => p.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col].map(Number));
  // Tab reaches the grid's one stop, its first cell; arrows move; the edges hold.
  await p.keyboard.press("Tab");
  assert.deepEqual(await focused(), [1, 1]);
  await p.keyboard.press("ArrowUp");
  assert.deepEqual(await focused(), [1, 1]);
  await p.keyboard.press("ArrowRight");
  await p.keyboard.press("ArrowDown");
  assert.deepEqual(await focused(), [2, 2]);
  assert.equal(await p.locator('#grid td[tabindex="0"]').count(), 1);
  // The solution's queen of row 2 (this puzzle's is in column 4).
  assert.equal(json.solution[1], 4);
  await p.keyboard.press("ArrowRight");
  await p.keyboard.press("ArrowRight");
  await p.keyboard.press("q");
  assert.equal(await label(2, 4), `row 2, column 4, region ${json.regions[1][3]}, queen`);
  assert.equal(await p.textContent("#msg"), "Queen on row 2, column 4.");
  assert.equal(await p.textContent("#count"), "Queens: 1 of 6.");
  await p.keyboard.press("End");
  await p.keyboard.press("x");
  assert.equal(await label(2, 6), `row 2, column 6, region ${json.regions[1][5]}, crossed out`);
  await p.keyboard.press("Control+End");
  assert.deepEqual(await focused(), [6, 6]);
  await p.keyboard.press("Space");
  await p.keyboard.press("Enter");
  assert.match(await label(6, 6), /, queen$/);
  await p.keyboard.press("Delete");
  assert.equal(await label(6, 6), `row 6, column 6, region ${json.regions[5][5]}`);
  // Undo takes back the clear, the queen, the cross of the Space, then the cross on (2, 6).
  await p.keyboard.press("u");
  assert.match(await label(6, 6), /, queen$/);
  await p.keyboard.press("Control+z");
  await p.keyboard.press("u");
  assert.equal(await label(6, 6), `row 6, column 6, region ${json.regions[5][5]}`);
  await p.keyboard.press("u");
  assert.doesNotMatch(await label(2, 6), /crossed/);
  assert.match(await label(2, 4), /, queen$/);
  // A hint names its cells for screen readers, and the live region says it.
  await p.keyboard.press("h");
  assert.match(await p.textContent("#msg"), /^Hint \(around\): the queen at row 2 column 4 rules out/);
  assert.equal(await p.getAttribute("#msg", "aria-live"), "polite");
  assert.match(await label(1, 4), /hint: cross this out$/);
  // The buttons act on the cell last focused.
  await focusCell(p, 4, 4);
  await p.click("#queen");
  assert.match(await label(5, 5), /, queen$/);
  await p.click("#clear");
  assert.doesNotMatch(await label(5, 5), /queen/);
  assert.deepEqual(errors, []);
  await p.close();
});

test("the page plays a board's marks, applies hints to the end and says when it is solved", async () => {
  const text = "AAAB\nCABB\nCCBD\nCCDD\nq 3 1\n";
  const { p, errors } = await open(playPage("marks.html", text));
  assert.match(await p.getAttribute('#grid td[data-row="3"][data-col="1"]', "aria-label"), /, queen$/);
  assert.match(await p.textContent(".rating"), /^Rated hard \(12 steps of the rules\)\.$/);
  for (let k = 0; k < 30 && !/solved/.test(await p.textContent("#msg")); k++) await p.keyboard.press("a");
  assert.equal(await p.textContent("#msg"), "Applied; solved: a queen in every row, column and region, and no two touch.");
  assert.equal(await p.textContent("#count"), "Queens: 4 of 4.");
  const verdict = run(["region", "solve", "--format", "text"], text);
  for (const [, r, c] of verdict.matchAll(/^q (\d+) (\d+)$/gm)) {
    assert.match(await p.getAttribute(`#grid td[data-row="${r}"][data-col="${c}"]`, "aria-label"), /, queen$/);
  }
  assert.deepEqual(errors, []);
  await p.close();
});

test("region borders and letters: every cell shows its region's letter, thick lines where regions meet", async () => {
  const line = run(["region", "generate", "9", "--seed", "1", "--format", "json"]).trim();
  const json = JSON.parse(line);
  const { p, errors } = await open(playPage("borders.html", line));
  const cells = await p.evaluate(() => [...document.querySelectorAll("#grid td")].map((td) => {
    const s = getComputedStyle(td);
    return [td.querySelector(".lbl").textContent, parseFloat(s.borderRightWidth), parseFloat(s.borderBottomWidth)];
  }));
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const [letter, right, bottom] = cells[r * 9 + c];
      assert.equal(letter, json.regions[r][c]);
      assert.equal(right >= 3, c === 8 || json.regions[r][c + 1] !== letter, `right of ${r + 1}, ${c + 1}`);
      assert.equal(bottom >= 3, r === 8 || json.regions[r + 1][c] !== letter, `below ${r + 1}, ${c + 1}`);
    }
  }
  assert.deepEqual(errors, []);
  await p.close();
});

test("axe-core finds no accessibility violation, with a hint and a broken rule on show; nothing overflows at 400 px", async () => {
  const line = run(["region", "generate", "9", "--seed", "1", "--format", "json"]).trim();
  for (const viewport of [{ width: 1280, height: 900 }, { width: 400, height: 800 }]) {
    const { p, errors } = await open(playPage(`axe${viewport.width}.html`, line), viewport);
    await p.keyboard.press("Tab");
    await p.keyboard.press("q");
    await p.keyboard.press("ArrowRight");
    await p.keyboard.press("q");
    await p.keyboard.press("c");
    await p.addScriptTag({ path: axePath });
    let result = await p.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    assert.deepEqual(result.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length})`), [], "check");
    await p.keyboard.press("u");
    await p.keyboard.press("h");
    result = await p.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    assert.deepEqual(result.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length})`), [], "hint");
    const [scroll, width] = await p.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= width, `${scroll} > ${width}`);
    assert.deepEqual(errors, []);
    await p.close();
  }
});
