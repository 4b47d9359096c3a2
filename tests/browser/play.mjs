// The page's play tab (web/dist/connectz.html) in Debian's Chromium, opened
// from disk: a full game clicked through against the perfect engine as second
// player, the first player always taking the leftmost open column (the engine
// must win), with an undo on the way; the game's file downloaded and judged by
// `connectz`, and judged in the page's first tab; every column's score shown
// for four positions equal to what `cz solve` prints for them (and, on the
// empty 7 x 6 board, to the entries of the 7 x 6 plan that `cz book --plan`
// made), the columns shared among the workers, one a core up to four; the
// workers read the opening book when the tab is opened (as many positions as
// cz solve's); the hint is a best column; a game against the medium level on
// another frame, the player second; a long think (the scores of the empty
// 8 x 7 board) and an engine's think cancelled (the page answers at once, the
// indicator goes away, the engine moves again when asked); the page stays
// usable while it thinks; the perfect engine's first reply on 8 x 7 comes
// within its budget and says it is not proven. No console errors, no network
// requests. Screenshots are saved for a person to look at.
//
//   node tests/browser/play.mjs PAGE CZ CONNECTZ SOLVER_DATA_DIR PLAN SCREENS_DIR

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { launch, watchedPage } from "./chromium.mjs";

const [pagePath, cz, connectz, solverData, planPath, screens] = process.argv.slice(2);
if (!screens) {
  console.error("usage: node play.mjs PAGE CZ CONNECTZ SOLVER_DATA_DIR PLAN SCREENS_DIR");
  process.exit(2);
}
mkdirSync(screens, { recursive: true });
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  return ok;
};

const browser = await launch();
const { page, errors } = await watchedPage(browser, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
const requests = [];
// Anything but the page's own file, its data: URLs and the worker's blob: URL
// is a request to the network: recorded, and refused.
const local = (url) => url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:");
page.context().on("request", (r) => {
  if (!local(r.url())) requests.push(r.url());
});
await page.context().route(/^(?!file:|data:|blob:)/, (route) => {
  requests.push(route.request().url());
  return route.abort();
});
await page.goto(pathToFileURL(resolve(pagePath)).href);
await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 30000 });
await page.click("#tab-play");
await page.waitForFunction(() => document.body.dataset.play === "human", null, { timeout: 30000 });
await page.screenshot({ path: join(screens, "1-play-start.png") });
// Opening the tab has the worker read the opening book at once, before any
// scores ask for it: every position of it (cz solve --stats counts them).
await page.waitForFunction(() => document.body.dataset.book !== undefined, null, { timeout: 60000 });
const bookRead = await page.evaluate(() => document.body.dataset.book);
const bookLine = execFileSync(cz, ["solve", "--stats", "--jobs", "1", "--table-mb", "2"], { input: "44\n" })
  .toString()
  .split("\n")
  .find((l) => l.startsWith("# the shipped book was read: "));
check(bookLine === `# the shipped book was read: ${bookRead} positions (its reading is in the mean time)`, `the worker read the book: ${bookRead} positions; cz solve: ${bookLine}`);

const data = () => page.evaluate(() => ({ ...document.body.dataset }));
let state;

// Waits until the engine has answered and the player is to move, or the game is over.
async function settled(timeout = 300000) {
  await page.waitForFunction(
    () => ["human", "over"].includes(document.body.dataset.play) && document.body.dataset.thinking === "0",
    null,
    { timeout },
  );
  return data();
}

// Drops a counter in the leftmost open column; returns its number.
async function leftmost() {
  const column = await page.$$eval("#play-columns button", (bs) => bs.findIndex((b) => !b.disabled) + 1);
  const before = Number((await data()).playMoves);
  await page.click(`#play-columns button[data-column="${column}"]`);
  await page.waitForFunction((n) => Number(document.body.dataset.playMoves) > n, before);
  return column;
}

// Starts a game: frame, the player's side, the engine's level, a start position.
async function newGame({ width = 7, height = 6, z = 4, side = "1", level = "2", start = "" }) {
  await page.fill("#play-width", String(width));
  await page.fill("#play-height", String(height));
  await page.fill("#play-z", String(z));
  await page.selectOption("#play-side", side);
  await page.selectOption("#play-level", level);
  await page.fill("#play-start", start);
  const setups = Number((await data()).setups || 0);
  await page.click("#play-new");
  await page.waitForFunction((n) => Number(document.body.dataset.setups) > n, setups);
}

// Frames the solver cannot take, and positions that are not positions, are refused with why.
await newGame({ width: 16, height: 8 });
check((await page.textContent("#play-setup-error")).includes("at most 128"), "16 x 8 is refused: width x (height + 1) > 128");
await newGame({ start: "4444444" });
const why = await page.textContent("#play-setup-error");
check(why.includes("column 4 is full"), `a seventh counter in column 4 is refused: ${why}`);
await newGame({});
state = await settled();
check(state.playMoves === "0" && (await page.textContent("#play-setup-error")) === "", "a new game on 7 x 6");

// Hostile frames, each after a game with a move on the board: refused with
// the field and why, and nothing of the last game left (board, columns,
// buttons, file). 2^32 + 7 once wrapped to 7 on its way to the module and hung
// the tab; an unwinnable frame once showed its refusal above the old board.
const hostile = [
  [{ width: "4294967303" }, "width: 4294967303 is not from 1 to"],
  [{ width: "7.5" }, 'width: "7.5" is not a whole number'],
  [{ height: "-1" }, 'height: "-1" is not a whole number'],
  [{ z: "" }, "run length z: empty"],
  [{ width: "1e3" }, 'width: "1e3" is not a whole number'],
  [{ z: "-4" }, 'run length z: "-4" is not a whole number'],
  [{ width: "127", height: "127" }, "too large for the solver"],
  [{ z: "100" }, "7 6 100 cannot be won"],
  [{ z: "8" }, "7 6 8 cannot be won"],
  [{ width: "2", height: "1", z: "2" }, "2 1 2 cannot be won"],
  [{ width: "3", height: "3", z: "5" }, "3 3 5 cannot be won"],
];
for (const [fields, want] of hostile) {
  await newGame({});
  await settled();
  await leftmost();
  await settled(30000);
  await newGame(fields);
  const refusal = await page.textContent("#play-setup-error");
  const left = await page.evaluate(() => ({
    play: document.body.dataset.play,
    board: document.getElementById("play-board").shadowRoot?.innerHTML ?? "",
    columns: document.getElementById("play-columns").children.length,
    file: document.getElementById("play-download").getAttribute("href"),
    fileOff: document.getElementById("play-download").getAttribute("aria-disabled") === "true" &&
      getComputedStyle(document.getElementById("play-download")).opacity < 0.5,
    buttons: ["play-undo", "play-hint", "play-judge"].map((id) => document.getElementById(id).disabled),
    invalid: [...document.querySelectorAll("#play [aria-invalid=true]")].map((e) => e.id),
  }));
  const shown = JSON.stringify(fields);
  check(refusal.includes(want), `${shown} is refused with "${want}": ${refusal}`);
  check(left.play === "setup-error" && left.board === "" && left.columns === 0 && left.file === null,
    `${shown} leaves no game: ${JSON.stringify(left)}`);
  check(left.buttons.every((d) => d) && left.fileOff, `${shown}: undo, hint, judge and the file are off`);
  const field = refusal.includes("width:") ? "play-width" : refusal.includes("height:") ? "play-height" : refusal.includes("run length z:") ? "play-z" : null;
  check(field === null ? left.invalid.length === 0 : left.invalid.includes(field), `${shown}: the field is marked: ${left.invalid}`);
}
await page.screenshot({ path: join(screens, "0-refused-frame.png") });
// The narrow view: every field of the setup within its panel (the "you play"
// select was once clipped).
await page.setViewportSize({ width: 360, height: 800 });
const spilled = await page.evaluate(() => {
  const panel = document.querySelector("#play section.panel").getBoundingClientRect();
  return [...document.querySelectorAll("#play section.panel input, #play section.panel select")]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.left < panel.left - 0.5 || r.right > panel.right + 0.5; })
    .map((e) => e.id);
});
check(spilled.length === 0, `fields spill out of the setup at 360 px: ${spilled.join(" ")}`);
await page.screenshot({ path: join(screens, "0-narrow-setup.png") });
await page.setViewportSize({ width: 1280, height: 900 });
await newGame({});
state = await settled();
check(state.playMoves === "0" && state.play === "human", "a good frame after the refusals starts a game");

// 1. A full game against the perfect engine, second player; the first player
// takes the leftmost open column every time, and takes one move back on the way.
state = await settled();
let clicks = 0;
while (state.play === "human") {
  await leftmost();
  clicks += 1;
  state = await settled();
  check(state.play === "over" || Number(state.playMoves) % 2 === 0, `the engine replied at move ${state.playMoves}`);
  if (clicks === 2 && state.play === "human") {
    await page.click("#play-undo");
    await page.waitForFunction(() => document.body.dataset.playMoves === "2");
    state = await settled();
    check(state.playMoves === "2", `undo took back a move and its reply: ${state.playMoves} moves left`);
  }
}
check(state.winner === "engine", `the perfect engine, second, against the leftmost column: ${state.winner}`);
check(state.playCode === "2", `the game's code is ${state.playCode}, a win for player 2`);
check((await page.textContent("#play-status")).includes("engine wins"), "the page says the engine wins");
console.log(`a game of ${state.playMoves} moves against the perfect engine: ${state.winner} wins (code ${state.playCode})`);
await page.screenshot({ path: join(screens, "2-engine-wins.png") });

// 2. The game's file: downloaded and judged by connectz, then judged in the first tab.
const [download] = await Promise.all([page.waitForEvent("download"), page.click("#play-download")]);
const saved = join(screens, "game.txt");
await download.saveAs(saved);
const file = readFileSync(saved, "utf8");
check(file.startsWith("7 6 4\n"), `the file's header: ${JSON.stringify(file.slice(0, 8))}`);
check(file.trim().split("\n").length === Number(state.playMoves) + 1, "a line per move after the header");
const code = execFileSync(connectz, [saved], { encoding: "utf8" }).trim();
check(code === "2", `connectz judges the downloaded game: ${code}`);
const runs = Number((await data()).runs || 0);
await page.click("#play-judge");
await page.waitForFunction((n) => Number(document.body.dataset.runs || 0) > n, runs);
check((await page.textContent("#code")).trim() === "2", "the first tab judges the game: 2");
check((await page.inputValue("#paste")) === file, "the first tab holds the game's file");
await page.screenshot({ path: join(screens, "3-judged-in-the-first-tab.png") });
await page.click("#tab-play");

// 3. Scores: each column's, for the side to move, against cz solve's.
// `cz solve` scores the position each column leaves, for the other side:
// the column's score is minus that; a column that completes a run scores
// what the position itself scores (no move does better than winning at
// once); a full column has none.
const signed = (n) => (n > 0 ? `+${n}` : String(n));
function solveLines(frame, lines) {
  // Exit status 1 says some line is not a position (a full column, a
  // completed run): its line says which.
  const run = spawnSync(
    cz,
    ["solve", "--jobs", "1", "--width", String(frame.width), "--height", String(frame.height), "--connect", String(frame.z)],
    { input: lines.join("\n") + "\n", encoding: "utf8" },
  );
  if (run.status !== 0 && run.status !== 1) throw new Error(`cz solve: ${run.stderr}`);
  const out = run.stdout.trim().split("\n");
  if (out.length !== lines.length) throw new Error(`cz solve answered ${out.length} of ${lines.length} lines`);
  return out.map((l) => l.split(" ").slice(1).join(" "));
}
function expectedScores(frame, position) {
  const moves = position === "." ? "" : position;
  const children = Array.from({ length: frame.width }, (_, c) => moves + String(c + 1));
  const [own, ...answers] = solveLines(frame, [position, ...children]);
  return answers.map((a) => {
    if (/^-?\d+$/.test(a)) return signed(-Number(a));
    if (a.includes("is full")) return "";
    if (a.includes("completes a run")) return signed(Number(own));
    throw new Error(`cz solve: ${a}`);
  });
}
const shownScores = () => page.$$eval("#play-columns .score", (spans) => spans.map((s) => s.textContent));

async function scoresOf(frame, position, side) {
  await newGame({ ...frame, side, start: position === "." ? "" : position });
  if (!(await page.isChecked("#play-scores"))) await page.check("#play-scores");
  await page.waitForFunction(
    (p) => document.body.dataset.scores === "shown" && document.body.dataset.scoresAt === p,
    position,
    { timeout: 300000 },
  );
  return shownScores();
}

const firstLine = (name) => readFileSync(join(solverData, name), "utf8").split("\n")[0].split(" ")[0];
const classic = { width: 7, height: 6, z: 4 };
const cases = [
  // The middle of a game (Pons' Test_L2_R1, its first position), player 2 to move.
  { frame: classic, position: firstLine("Test_L2_R1") },
  // Near the end (Test_L3_R1): five full columns.
  { frame: classic, position: firstLine("Test_L3_R1") },
  // Another frame and a player 1 to move.
  { frame: { width: 6, height: 5, z: 4 }, position: "3443" },
];
for (const { frame, position } of cases) {
  const side = position.length % 2 === 0 ? "1" : "2";
  const shown = await scoresOf(frame, position, side);
  const want = expectedScores(frame, position);
  check(
    JSON.stringify(shown) === JSON.stringify(want),
    `${frame.width}x${frame.height} z=${frame.z} ${position}: page shows ${shown.join(" ")}, cz solve gives ${want.join(" ")}`,
  );
  console.log(`scores of ${position} on ${frame.width} x ${frame.height}: ${shown.join(" ")} (cz solve: ${want.join(" ")})`);
  // The columns are shared among the workers, one a core up to four, each
  // starting on a column at once.
  const { workers, workersAtOnce } = await data();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
  const open = want.filter((s) => s !== "").length;
  check(workers === String(Math.max(1, Math.min(4, cores))), `${workers} workers on ${cores} cores`);
  check(
    workersAtOnce === String(Math.min(Number(workers), open)),
    `${position}'s ${open} columns were shared among ${workersAtOnce} of ${workers} workers`,
  );
}
await page.screenshot({ path: join(screens, "4-scores.png") });

// The hint on the last position is a column of the best score shown.
await page.click("#play-hint");
await page.waitForSelector("#play-columns button.hint");
const hinted = Number(await page.getAttribute("#play-columns button.hint", "data-column"));
const scores = (await shownScores()).map((s) => (s === "" ? -Infinity : Number(s)));
check(scores[hinted - 1] === Math.max(...scores), `the hint, column ${hinted}, scores ${scores[hinted - 1]}, the best is ${Math.max(...scores)}`);
await page.screenshot({ path: join(screens, "5-hint.png") });

// The empty 7 x 6 board: the first move's scores come from the plan, at once;
// they are minus the plan's scores of the positions after each first move
// (one of each mirror pair in the plan: column c and 8 - c).
const plan = new Map(
  readFileSync(planPath, "utf8").split("\n").slice(1).filter(Boolean).map((l) => l.split(" ")).map(([m, s]) => [m, Number(s)]),
);
const opening = await scoresOf(classic, ".", "1");
const fromPlan = Array.from({ length: 7 }, (_, c) => {
  return signed(-(plan.get(String(c + 1)) ?? plan.get(String(7 - c))));
});
check(JSON.stringify(opening) === JSON.stringify(fromPlan), `the first move's scores: ${opening.join(" ")}, the plan's: ${fromPlan.join(" ")}`);
await page.uncheck("#play-scores");

// 4. The medium level on another frame, the player second and taking the
// leftmost column: a game played out, its verdict the judge's.
await newGame({ width: 6, height: 5, z: 4, side: "2", level: "1" });
state = await settled();
check(state.playMoves === "1", "the engine opens when the player is second");
while (state.play === "human") {
  await leftmost();
  state = await settled();
}
check(["0", "1", "2"].includes(state.playCode), `the medium game ends: code ${state.playCode}`);
console.log(`a game against the medium level on 6 x 5: ${state.winner} (code ${state.playCode}, ${state.playMoves} moves)`);

// 5. A long think (every column's score on the empty 8 x 7 board, each a
// proof of many minutes), the page used while it runs, then cancelled.
await newGame({ width: 8, height: 7, z: 4, side: "1", level: "2" });
await page.check("#play-scores");
await page.waitForSelector("#thinking:not(.idle)", { timeout: 10000 });
check((await data()).scores === "solving", "the scores are being solved");
// The page stays free: judge a sample in the first tab meanwhile.
await page.click("#tab-game");
const before = Number((await data()).runs || 0);
await page.click('#samples button[data-code="1"]');
await page.waitForFunction((n) => Number(document.body.dataset.runs || 0) > n, before, { timeout: 10000 });
check((await page.textContent("#code")).trim() === "1", "the first tab judges while the scores are solved");
await page.click("#tab-play");
check((await data()).thinking === "1", "the scores are still being solved");
await page.waitForFunction(() => /\(\d+ s\)/.test(document.getElementById("thinking-what").textContent), null, {
  timeout: 10000,
});
await page.screenshot({ path: join(screens, "6-thinking.png") });
await page.click("#play-cancel");
await page.waitForFunction(
  () =>
    document.body.dataset.thinking === "0" &&
    document.body.dataset.scores === "cancelled" &&
    document.getElementById("thinking").classList.contains("idle"),
  null,
  { timeout: 5000 },
);
check((await data()).playMoves === "0", "no move was made");
await page.screenshot({ path: join(screens, "7-cancelled.png") });
await page.uncheck("#play-scores");

// The perfect engine's think cancelled at once (on 8 x 7 it searches for some
// seconds): the engine's turn waits; the easy level moves when asked, the
// player replies.
await newGame({ width: 8, height: 7, z: 4, side: "2", level: "2" });
await page.waitForSelector("#thinking:not(.idle)", { timeout: 10000 });
check((await data()).play === "engine", "the engine is thinking on its first move");
await page.click("#play-cancel");
await page.waitForFunction(
  () => document.body.dataset.thinking === "0" && document.body.dataset.play === "stopped",
  null,
  { timeout: 5000 },
);
check((await data()).playMoves === "0", "the cancelled engine made no move");
await page.selectOption("#play-level", "0");
await page.click("#play-resume");
state = await settled(30000);
check(state.playMoves === "1" && state.play === "human", `after the cancel the engine moved: ${state.playMoves} moves`);
await leftmost();
state = await settled(30000);
check(state.playMoves === "3", `and answers the player: ${state.playMoves} moves`);

// The perfect engine's first reply on the empty 8 x 7 board is bounded: no
// proof within its budget, so it plays the medium search's move and says so.
await newGame({ width: 8, height: 7, z: 4, side: "2", level: "2" });
const asked = Date.now();
state = await settled(120000);
const said = await page.textContent("#play-said");
check(state.playMoves === "1", `the perfect engine's first move on 8 x 7: ${state.playMoves} moves`);
check(said.includes("not proven") && said.includes("medium search"), `it says its move is not proven: ${said}`);
console.log(`the perfect engine's first reply on 8 x 7 came in ${((Date.now() - asked) / 1000).toFixed(1)} s: ${said}`);
await page.screenshot({ path: join(screens, "7b-not-proven.png") });

// A new game while the engine thinks: the think is ended, the new game is the new game's.
await newGame({ width: 8, height: 7, z: 4, side: "2", level: "2" });
await page.waitForSelector("#thinking:not(.idle)", { timeout: 10000 });
await newGame({});
state = await settled(30000);
check(state.play === "human" && state.playMoves === "0", `a new game during a think: ${state.play}, ${state.playMoves} moves`);
await leftmost();
state = await settled(30000);
check(state.playMoves === "2", `and the engine answers in it: ${state.playMoves} moves`);

// Dark mode.
await page.emulateMedia({ colorScheme: "dark" });
await page.screenshot({ path: join(screens, "8-dark.png") });

check(errors.length === 0, `console errors: ${errors.join(" | ")}`);
check(requests.length === 0, `network requests: ${requests.join(" ")}`);
await browser.close();
if (failures.length) {
  console.error(`${failures.length} failures:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log(`play tab checks passed; screenshots in ${screens}`);
