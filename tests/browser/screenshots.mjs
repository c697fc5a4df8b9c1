// Screenshots of a trace's page at its start, a rejection, a back-up and its end, in
// presentation mode, of its animated SVG, and its
// storyboard, to look at what learners see (scripts/render-trace.sh calls this).
//   node tests/browser/screenshots.mjs OUT_DIR N ALGO NQUEENS_BIN
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";

const [out, n, algo, bin] = process.argv.slice(2);
const dir = resolve(out);
mkdirSync(dir, { recursive: true });
const run = (args) => execFileSync(bin, args, { maxBuffer: 64 << 20 });
writeFileSync(`${dir}/trace.html`, run(["trace", n, "--algo", algo, "--format", "html"]));
writeFileSync(`${dir}/storyboard.svg`, run(["trace", "5", "--algo", algo, "--format", "storyboard", "--every-step", "--limit", "16"]));
writeFileSync(`${dir}/trace.svg`, run(["trace", "5", "--algo", algo, "--format", "svg", "--limit", "400"]));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
const p = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
await p.goto(`file://${dir}/trace.html`);
await p.waitForSelector("body[data-ready=true]");
const total = Number(/of (\d+)/.exec(await p.textContent(".caption"))[1]);
// A rejection and a back-up a little way in, read from the JSON Lines trace.
const steps = run(["trace", n, "--algo", algo, "--format", "json"]).toString().trim().split("\n").slice(1, -1).map((l) => JSON.parse(l));
const after = (event, from) => steps.findIndex((s, i) => i >= from && s.event === event) + 1;
const shots = [["start", 1], ["reject", after("reject", 60)], ["backup", after("remove", 60)], ["end", total]];
for (const [name, step] of shots) {
  await p.evaluate((s) => { location.hash = "#step=" + s; }, step);
  await p.waitForFunction((s) => document.querySelector(".caption").textContent.startsWith("Step " + s + " "), step);
  await p.waitForTimeout(200);
  await p.screenshot({ path: `${dir}/html-${name}.png` });
  console.log(`${dir}/html-${name}.png (step ${step})`);
}
// Presentation mode on a 1024 x 768 projector.
const proj = await browser.newPage({ viewport: { width: 1024, height: 768 } });
await proj.goto(`file://${dir}/trace.html#step=${after("reject", 60)}`);
await proj.waitForSelector("body[data-ready=true]");
await proj.keyboard.press("p");
await proj.waitForTimeout(200);
await proj.screenshot({ path: `${dir}/html-present.png` });
const narrow = await browser.newPage({ viewport: { width: 420, height: 900 } });
await narrow.goto(`file://${dir}/trace.html#step=40`);
await narrow.waitForSelector("body[data-ready=true]");
await narrow.screenshot({ path: `${dir}/html-narrow.png` });
const svg = await browser.newPage({ viewport: { width: 300, height: 400 } });
await svg.goto(`file://${dir}/trace.svg`);
await svg.waitForTimeout(3000);
await svg.screenshot({ path: `${dir}/svg-3s.png` });
const board = await browser.newPage({ viewport: { width: 900, height: 700 } });
await board.goto(`file://${dir}/storyboard.svg`);
await board.screenshot({ path: `${dir}/storyboard.png` });
await browser.close();
