// What the browser tests share: the binary, pages written from it, the board replayed from its
// JSON Lines trace, and reading the page. NQUEENS_BIN names the binary (default
// target/debug/nqueens), CHROMIUM the browser (default /usr/bin/chromium).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const bin = process.env.NQUEENS_BIN || join(root, "target/debug/nqueens");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
export const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const dir = mkdtempSync(join(tmpdir(), "nqueens-browser-"));
let browser;

export async function launch() {
  browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
  return browser;
}
export async function close() {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}

export function nqueens(args) {
  return execFileSync(bin, args, { maxBuffer: 64 << 20 }).toString();
}
export function page(name, args) {
  const file = join(dir, name);
  writeFileSync(file, nqueens(args));
  return "file://" + file;
}

// The board after each step, replayed from JSON Lines (rows and columns from 1): boards[k]
// is the column (from 0) of each row's queen after k steps, -1 for none; stacks[k] the queens
// on the board after k steps as [row, col] from 0, in the order they were placed.
export function replay(args) {
  const lines = nqueens(args).trim().split("\n").map((l) => JSON.parse(l));
  const n = lines[0].n;
  const steps = lines.slice(1, -1);
  const board = new Array(n).fill(-1);
  const boards = [board.slice()];
  const stack = [];
  const stacks = [[]];
  for (const s of steps) {
    if (s.event === "place") { board[s.row - 1] = s.col - 1; stack.push([s.row - 1, s.col - 1]); }
    if (s.event === "remove") {
      board[s.row - 1] = -1;
      const i = stack.findIndex(([r]) => r === s.row - 1);
      if (i >= 0) stack.splice(i, 1);
    }
    boards.push(board.slice());
    stacks.push(stack.map((q) => q.slice()));
  }
  return { n, steps, boards, stacks, end: lines[lines.length - 1] };
}

export async function open(url, viewport = { width: 1280, height: 900 }, options = {}) {
  const { clock, ...context } = options;
  const p = await browser.newPage({ viewport, ...context });
  const errors = [];
  p.on("pageerror", (e) => errors.push(e.message));
  p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  if (clock) await p.clock.install();
  const t0 = Date.now();
  await p.goto(url);
  await p.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  return { p, errors, ms: Date.now() - t0 };
}

// The column (from 0) of each row's queen on the board of player `which`, -1 for none.
export async function queens(p, n, which = 0) {
  return p.evaluate(([n, which]) => {
    const sq = document.querySelectorAll(".player")[which].querySelectorAll(".sq");
    const cols = [];
    for (let r = 0; r < n; r++) {
      let c = -1;
      for (let k = 0; k < n; k++) if (sq[r * n + k].textContent === "\u265B") c = k;
      cols.push(c);
    }
    return cols;
  }, [n, which]);
}

export async function stepShown(p) {
  const caption = await p.textContent(".caption");
  return Number(/^Step (\d+) of/.exec(caption)[1]);
}

export async function goTo(p, k) {
  await p.fill("#goto", String(k));
  await p.click("#go");
}
