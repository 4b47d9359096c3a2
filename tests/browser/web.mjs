// The judge's page (web/dist/connectz.html) in Debian's Chromium, opened from
// disk: every shipped case through its file input gets the code `connectz`
// prints; the brief's nine samples, one click each; the replay steps move by
// move; the board-snapshot tab answers; a large generated file is judged as a
// stream (the page giving the browser a turn every 4 MiB), timed next to the
// CLI. No console errors, no network requests.
// Screenshots are saved for a person to look at.
//
//   node tests/browser/web.mjs PAGE CASES_DIR CONNECTZ BIG_FILE SCREENS_DIR

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { launch, watchedPage } from "./chromium.mjs";

const [pagePath, casesDir, connectz, bigFile, screens] = process.argv.slice(2);
if (!screens) {
  console.error("usage: node web.mjs PAGE CASES_DIR CONNECTZ BIG_FILE SCREENS_DIR");
  process.exit(2);
}
mkdirSync(screens, { recursive: true });
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".txt") ? [path] : [];
  });
}

function cli(path) {
  const started = process.hrtime.bigint();
  const out = execFileSync(connectz, [path], { encoding: "utf8" }).trim();
  return { code: out, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

const browser = await launch();
const { page, errors } = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
const requests = [];
// The page's own file, its data: URLs and the blob: URL its play tab's worker
// is made from are local; anything else is a request to the network.
page.on("request", (r) => {
  const url = r.url();
  if (!url.startsWith("file:") && !url.startsWith("data:") && !url.startsWith("blob:")) requests.push(url);
});
await page.goto(pathToFileURL(resolve(pagePath)).href);
await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 30000 });
await page.screenshot({ path: join(screens, "1-loaded.png") });

// Waits for the page's next judgement (runs counts them) and returns the code shown.
async function judged(action, timeout = 120000) {
  const before = await page.evaluate(() => Number(document.body.dataset.runs || 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.runs || 0) > n, before, { timeout });
  return (await page.textContent("#code")).trim();
}

// Every shipped case, through the file input.
const cases = files(casesDir).sort();
check(cases.length > 60, `only ${cases.length} cases found in ${casesDir}`);
for (const path of cases) {
  const expected = cli(path).code;
  const shown = await judged(() => page.setInputFiles("#file", path));
  check(shown === expected, `${path}: page shows ${shown}, connectz prints ${expected}`);
}
console.log(`${cases.length} shipped cases judged in the page`);

// The brief's nine samples, one click each.
const samples = await page.$$("#samples button");
check(samples.length === 9, `${samples.length} sample buttons, expected 9`);
for (const button of samples) {
  const expected = await button.getAttribute("data-code");
  const shown = await judged(() => button.click());
  check(shown === expected, `sample ${expected}: page shows ${shown}`);
  if (expected === "4") await page.screenshot({ path: join(screens, "2-sample-4.png") });
}

// Replay: the first player's win of the brief, stepped back and forth.
await judged(() => page.click('#samples button[data-code="1"]'));
const counters = () =>
  page.evaluate(() => document.querySelector("#board").shadowRoot.querySelectorAll("circle.one, circle.two").length);
const total = Number(await page.getAttribute("#move", "max"));
check(total > 0, "the winning sample has moves to replay");
check((await counters()) === total, `final board: ${await counters()} counters for ${total} moves`);
check(
  (await page.evaluate(() => document.querySelector("#board").shadowRoot.querySelectorAll("circle.run").length)) > 0,
  "the winning run is ringed",
);
await page.click("#prev");
await page.waitForFunction((n) => document.body.dataset.shown === String(n), total - 1);
check((await counters()) === total - 1, "one step back shows one counter fewer");
await page.focus("body");
for (let k = total - 1; k > 2; k--) await page.keyboard.press("ArrowLeft");
await page.waitForFunction(() => document.body.dataset.shown === "2");
check((await counters()) === 2, `after two moves: ${await counters()} counters`);
await page.screenshot({ path: join(screens, "3-replay-move-2.png") });
await page.keyboard.press("ArrowRight");
await page.waitForFunction(() => document.body.dataset.shown === "3");
check((await counters()) === 3, "a step forward shows three counters");
const label = await page.textContent("#move-label");
check(label.includes(`move 3 of ${total}`), `label: ${label}`);

// The board-snapshot tab: the grid of the page's own default, then an impossible one.
await page.click("#tab-snapshot");
await page.click("#judge-grid");
check((await page.textContent("#snapshot-answer")).includes("moves"), "the default grid: someone moves");
await page.fill("#grid", "x......\nx......\nx......\nx......\no......\no......");
await page.fill("#first", "x");
await page.click("#judge-grid");
const answer = await page.textContent("#snapshot-answer");
check(answer.includes("invalid"), `a column of four above two: ${answer}`);
await page.screenshot({ path: join(screens, "4-snapshot-invalid.png") });
await page.click("#tab-game");

// A large file, as a stream, next to the CLI.
const big = cli(bigFile);
const bytes = statSync(bigFile).size;
const shown = await judged(() => page.setInputFiles("#file", bigFile), 600000);
check(shown === big.code, `${bigFile}: page shows ${shown}, connectz prints ${big.code}`);
const pageMs = Number(await page.evaluate(() => document.body.dataset.ms));
const turns = Number(await page.evaluate(() => document.body.dataset.turns));
check(turns >= Math.floor(bytes / (4 << 20)) - 1, `the page gave the browser ${turns} turns while reading`);
console.log(
  `${(bytes / 1e6).toFixed(1)} MB file: page ${pageMs.toFixed(0)} ms, connectz ${big.ms.toFixed(0)} ms (code ${shown})`,
);
await page.screenshot({ path: join(screens, "5-large-file.png") });

// Dark mode.
await page.emulateMedia({ colorScheme: "dark" });
await judged(() => page.click('#samples button[data-code="2"]'));
await page.screenshot({ path: join(screens, "6-dark.png") });

check(errors.length === 0, `console errors: ${errors.join(" | ")}`);
check(requests.length === 0, `network requests: ${requests.join(" ")}`);
await browser.close();
if (failures.length) {
  console.error(`${failures.length} failures:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log(`page checks passed; screenshots in ${screens}`);
