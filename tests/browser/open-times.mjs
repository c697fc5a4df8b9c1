// Page sizes and opening times of whole traces, for docs/trace.md: each page opened five
// times in headless Chromium, the time from navigation to the player being ready.
//   node tests/browser/open-times.mjs [NQUEENS_BIN]
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const bin = process.argv[2] || "target/release/nqueens";
const dir = mkdtempSync(join(tmpdir(), "nqueens-open-"));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
console.log("| page | steps | size | opening, median of 5 (min-max) |");
console.log("|---|---|---|---|");
for (const [n, algo] of [[6, "backtracking"], [8, "backtracking"], [10, "backtracking"], [8, "permutations"], [10, "cp"]]) {
  const html = execFileSync(bin, ["trace", String(n), "--algo", algo, "--format", "html"], { maxBuffer: 64 << 20 });
  const file = join(dir, `${algo}${n}.html`);
  writeFileSync(file, html);
  const times = [];
  let steps = "";
  for (let i = 0; i < 5; i++) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const t0 = Date.now();
    await p.goto("file://" + file);
    await p.waitForSelector("body[data-ready=true]", { timeout: 30000 });
    times.push(Date.now() - t0);
    steps = /of (\d+)/.exec(await p.textContent(".caption"))[1];
    await p.close();
  }
  times.sort((a, b) => a - b);
  const kb = (html.length / 1000).toFixed(0);
  console.log(`| \`trace ${n} --algo ${algo} --format html\` | ${steps} | ${kb} KB | ${times[2]} ms (${times[0]}-${times[4]}) |`);
}
await browser.close();
rmSync(dir, { recursive: true, force: true });
