// ---- The play tab: a game against the engine of `cz play`. ----
// The page keeps the moves (0-based columns); the module answers everything
// else: this page's instance draws the board and says whose turn it is (the
// judge's verdict on the game's file), the workers' instances find the
// engine's moves, the hint and the scores.
let wasmModule = null;
/** The module's one import: the clock the medium level stops by. */
const CLOCK = { connectz: { cz_now_ms: () => performance.now() } };
const LEVELS = ["easy", "medium", "perfect"];
const play = {
  game: 0, width: 7, height: 6, z: 4, human: 1, start: [], moves: [], seed: 0,
  view: null, scores: null, hint: null, said: "", stopped: false,
};
/**
 * The workers, each its own instance of the module with its own table and
 * its own copy of the book: the first finds the engine's moves and the hint;
 * the scores are shared among all of them, a column each at a time. One a
 * core, at most four: each adds about 50 MB once it has read the book, and
 * up to its table's 32 MB more as the table fills.
 */
const workers = [];
const WORKERS = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
let workerUrl = null, job = null, jobs = 0, thinkingTimer = 0, tickTimer = 0;
/** Whether the play tab has been opened: each worker then reads the opening book at once. */
let warm = false;

function startWorker(i) {
  workerUrl ??= URL.createObjectURL(new Blob([$("worker-source").textContent], { type: "text/javascript" }));
  const worker = new Worker(workerUrl);
  workers[i] = worker;
  worker.onmessage = ({ data }) => {
    if (data.warmed !== undefined) {
      // The first worker's count stands for all: each reads the same book.
      if (i === 0) document.body.dataset.book = String(data.warmed);
      return;
    }
    if (job && data.id === job.id) answered(job, i, data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    const failed = job?.busy.has(i) ? job : null;
    failed?.busy.delete(i);
    restartWorker(i);
    if (failed) finish(failed, { error: "the engine stopped: " + (e.message || "an error in its worker") });
  };
  worker.postMessage({ module: wasmModule });
  if (warm) worker.postMessage({ warm: true });
}

/** The play tab opened: the workers read the opening book now, not at the first scores. */
function warmBook() {
  if (warm) return;
  warm = true;
  for (const w of workers) w.postMessage({ warm: true });
}

function restartWorker(i) {
  workers[i]?.terminate();
  startWorker(i);
}

/**
 * Asks the first worker; resolves with its answer, or with null when
 * cancelled.
 */
async function ask(kind, extra, what) {
  const answers = await askEach(kind, [extra], 1, what);
  return answers === null || answers.error ? answers : answers[0];
}

/**
 * Asks `parts` (each a message's own fields) of up to `width` workers, the
 * next part to whichever is free first; `each(part, answer)` hears each
 * answer as it comes. Resolves with the answers in the parts' order, with
 * the first error, or with null when cancelled.
 */
function askEach(kind, parts, width, what, each = () => {}) {
  cancelJob();
  const id = ++jobs;
  const base = { id, kind, width: play.width, height: play.height, z: play.z, moves: Uint8Array.from(play.moves) };
  return new Promise((resolve) => {
    const j = { id, kind, resolve, started: performance.now(), what, base, parts, each, next: 0, answers: [], busy: new Map() };
    job = j;
    const atOnce = Math.min(width, workers.length, parts.length);
    for (let i = 0; i < atOnce; i++) dispatch(j, i);
    // For the browser test: how many workers the job was shared among.
    document.body.dataset.workersAtOnce = String(atOnce);
    thinkingOn();
  });
}

/** Gives worker `i` the job's next part. */
function dispatch(j, i) {
  const part = j.next++;
  j.busy.set(i, part);
  workers[i].postMessage({ ...j.base, ...j.parts[part], part });
}

/** Worker `i`'s answer to its part of job `j`. */
function answered(j, i, data) {
  const part = j.busy.get(i);
  j.busy.delete(i);
  if (data.broken) restartWorker(i);
  if (data.answer.error) return finish(j, data.answer);
  j.answers[part] = data.answer;
  j.each(part, data.answer);
  if (j.next < j.parts.length) dispatch(j, i);
  else if (j.busy.size === 0) finish(j, j.answers);
}

/** Ends job `j` with `result`; workers still in it are ended (their answers would not be read). */
function finish(j, result) {
  if (job !== j) return;
  job = null;
  for (const i of j.busy.keys()) restartWorker(i);
  j.busy.clear();
  thinkingOff();
  j.resolve(result);
}

/** Ends the job in progress by ending its workers (a search cannot be interrupted otherwise). */
function cancelJob() {
  if (!job) return null;
  const cancelled = job;
  finish(cancelled, null);
  return cancelled;
}

function thinkingOn() {
  document.body.dataset.thinking = "1";
  clearTimeout(thinkingTimer);
  // Answers from the plan come at once: say "thinking" only when it lasts.
  thinkingTimer = setTimeout(() => {
    if (!job) return;
    $("thinking").classList.remove("idle");
    tick();
  }, 150);
}

function tick() {
  clearTimeout(tickTimer);
  if (!job) return;
  const s = Math.floor((performance.now() - job.started) / 1000);
  $("thinking-what").textContent = `${job.what()}${s >= 1 ? ` (${s} s)` : ""}`;
  tickTimer = setTimeout(tick, 250);
}

function thinkingOff() {
  clearTimeout(thinkingTimer);
  clearTimeout(tickTimer);
  $("thinking").classList.add("idle");
  document.body.dataset.thinking = "0";
}

function putBytes(u8) {
  const p = ex.cz_buffer(u8.length);
  new Uint8Array(ex.memory.buffer, p, u8.length).set(u8);
}

/** The game as the judge sees it, from this page's instance (instant). */
function viewOf(moves) {
  const title = encoder.encode("your game against the engine");
  const both = new Uint8Array(moves.length + title.length);
  both.set(moves); both.set(title, moves.length);
  putBytes(both);
  return answer(ex.cz_play_view(moves.length, title.length, play.width, play.height, play.z));
}

/** The frame's fields: each id and the name its errors give. */
const FRAME_FIELDS = [["play-width", "width"], ["play-height", "height"], ["play-z", "run length z"]];

/** The most a field's number can be and still reach the module exactly (a u32 there). */
const MOST_FIELD = 2 ** 31 - 1;

/**
 * A field's whole number as typed, or why it is none: digits only (no sign,
 * fraction, exponent or blank), from 1 to MOST_FIELD, so that nothing wraps
 * or rounds on its way to the module, which then checks the frame itself.
 */
function wholeField(id, name) {
  const raw = $(id).value.trim();
  if (!/^[0-9]+$/.test(raw)) {
    return { error: `${name}: ${raw === "" ? "empty (or not a number)" : JSON.stringify(raw)} is not a whole number` };
  }
  const n = Number(raw);
  if (n < 1 || n > MOST_FIELD) return { error: `${name}: ${raw} is not from 1 to ${MOST_FIELD}` };
  return { value: n };
}

/** No game on screen: what a refused setup leaves (no board, no buttons, no file of the last game). */
function clearGame(why) {
  Object.assign(play, { game: play.game + 1, moves: [], start: [], view: null, scores: null, hint: null, said: "", stopped: false });
  const host = $("play-board");
  (host.shadowRoot ?? host.attachShadow({ mode: "open" })).innerHTML = "";
  $("play-columns").replaceChildren();
  $("play-status").textContent = "No game: " + why;
  $("play-note").textContent = "";
  $("play-said").textContent = "";
  $("play-score-note").classList.add("hidden");
  $("play-download").removeAttribute("href");
  $("play-download").setAttribute("aria-disabled", "true");
  for (const id of ["play-undo", "play-hint", "play-judge"]) $(id).disabled = true;
  $("play-resume").classList.add("hidden");
  document.body.dataset.play = "setup-error";
  delete document.body.dataset.playMoves;
  delete document.body.dataset.playCode;
}

function newGame() {
  cancelJob();
  document.body.dataset.setups = String(Number(document.body.dataset.setups || 0) + 1);
  const numbers = [];
  let refused = null;
  for (const [id, name] of FRAME_FIELDS) {
    const field = wholeField(id, name);
    $(id).setAttribute("aria-invalid", field.error ? "true" : "false");
    if (field.error && !refused) refused = field.error;
    numbers.push(field.value);
  }
  const refuse = (why) => {
    $("play-setup-error").textContent = `Cannot start: ${why}.`;
    clearGame("correct the setup above and press New game.");
  };
  if (refused) return refuse(refused);
  const [width, height, z] = numbers;
  const text = encoder.encode($("play-start").value.trim());
  putBytes(text);
  const started = answer(ex.cz_play_start(text.length, width, height, z));
  if (started.error) return refuse(started.error);
  $("play-setup-error").textContent = "";
  Object.assign(play, {
    game: play.game + 1, width, height, z, human: Number($("play-side").value),
    start: started.columns.map((c) => c - 1), seed: crypto.getRandomValues(new Uint32Array(1))[0],
    scores: null, hint: null, said: "", stopped: false,
  });
  play.moves = [...play.start];
  document.body.dataset.games = String(Number(document.body.dataset.games || 0) + 1);
  refresh();
}

const mover = (ply) => (ply % 2 === 0 ? 1 : 2);

/** Draws the game and starts whatever it needs next: the engine's move, or the scores. */
function refresh() {
  const v = viewOf(play.moves);
  if (v.error) { $("play-status").textContent = `The game cannot go on: ${v.error}`; return; }
  play.view = v;
  drawPlayBoard(v.svg);
  const engineToMove = v.to_move != null && v.to_move !== play.human;
  document.body.dataset.playMoves = String(play.moves.length);
  document.body.dataset.playCode = String(v.code);
  $("play-said").textContent = play.said;
  const file = v.file;
  $("play-download").href = "data:text/plain;charset=utf-8," + encodeURIComponent(file);
  $("play-download").removeAttribute("aria-disabled");
  if (v.to_move == null) {
    const winner = v.code === 1 || v.code === 2 ? v.code : 0;
    $("play-status").textContent = winner === 0 ? "Draw: the frame is full." : winner === play.human ? "You win." : "The engine wins.";
    $("play-note").textContent = `connectz judges the game's file: code ${v.code} (${MEANINGS[v.code]}). Undo, or start a new game.`;
    document.body.dataset.play = "over";
    document.body.dataset.winner = winner === 0 ? "draw" : winner === play.human ? "you" : "engine";
  } else if (engineToMove && play.stopped) {
    $("play-status").textContent = "The engine's move was cancelled.";
    $("play-note").textContent = (lastHumanMove() >= 0 ? "Undo your move, pick" : "Pick") + " another level, or let it move again.";
    document.body.dataset.play = "stopped";
  } else if (engineToMove) {
    $("play-status").textContent = "The engine's move.";
    $("play-note").textContent = "";
    document.body.dataset.play = "engine";
  } else {
    $("play-status").textContent = `Your move (you are player ${play.human}, ${play.human === 1 ? "blue" : "orange"}).`;
    $("play-note").textContent = "Click a column to drop a counter.";
    document.body.dataset.play = "human";
  }
  drawColumns();
  updateButtons();
  if (engineToMove && !play.stopped) engineMove();
  else if (!engineToMove && v.to_move != null && $("play-scores").checked) showScores();
}

function updateButtons() {
  const v = play.view;
  const human = v && v.to_move === play.human;
  const engineBusy = job?.kind === "engine-move";
  $("play-undo").disabled = engineBusy || lastHumanMove() < 0;
  $("play-hint").disabled = engineBusy || !human;
  $("play-resume").classList.toggle("hidden", !(play.stopped && v && v.to_move != null && v.to_move !== play.human));
  $("play-judge").disabled = !v;
}

/** The picture (the judge's, as in the first tab) in a shadow root. */
function drawPlayBoard(svg) {
  const host = $("play-board");
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  root.innerHTML = "<style>svg { max-width: 100%; height: auto; max-height: 62vh; display: block; }</style>" + svg;
}

/** The frame's rectangle in the picture, in the page's coordinates. */
function frameRect() {
  return $("play-board").shadowRoot?.querySelector("rect.frame")?.getBoundingClientRect() ?? null;
}

/** A button over each column of the picture, its score in its top cell when shown. */
function drawColumns() {
  const row = $("play-columns");
  const v = play.view;
  if (!v) return;
  if (row.children.length !== play.width) {
    row.replaceChildren();
    for (let c = 1; c <= play.width; c++) {
      const b = document.createElement("button");
      b.dataset.column = String(c);
      b.innerHTML = '<span class="score"></span>';
      b.addEventListener("click", () => humanMove(c));
      row.append(b);
    }
    row.style.gridTemplateColumns = `repeat(${play.width}, 1fr)`;
  }
  const human = v.to_move === play.human && job?.kind !== "engine-move";
  const shown = play.scores && $("play-scores").checked;
  const best = shown ? Math.max(...play.scores.filter((s) => s != null)) : null;
  for (let c = 1; c <= play.width; c++) {
    const b = row.children[c - 1], cell = b.firstChild;
    const s = shown ? play.scores[c - 1] : null;
    b.disabled = !human || !v.open[c - 1];
    b.classList.toggle("hint", play.hint === c);
    b.title = `column ${c}` + (s != null ? `: score ${s}` : "");
    b.setAttribute("aria-label", b.title);
    cell.textContent = s == null ? "" : s > 0 ? `+${s}` : String(s);
    cell.className = "score" + (s > 0 ? " win" : s < 0 ? " loss" : "") + (s != null && s === best ? " best" : "");
  }
  $("play-score-note").classList.toggle("hidden", !shown);
  align();
}

/** Lays the column buttons over the picture's columns, each score in its column's top cell. */
function align() {
  const r = frameRect(), area = $("play-area").getBoundingClientRect();
  if (!r || r.width === 0) return;
  const row = $("play-columns");
  Object.assign(row.style, { left: `${r.left - area.left}px`, top: `${r.top - area.top}px`, width: `${r.width}px`, height: `${r.height}px` });
  const cell = r.height / play.height;
  for (const b of row.children) {
    Object.assign(b.firstChild.style, { height: `${cell}px`, fontSize: `${Math.max(8, Math.min(18, cell * 0.36))}px` });
  }
}

function lastHumanMove() {
  for (let i = play.moves.length - 1; i >= play.start.length; i--) if (mover(i) === play.human) return i;
  return -1;
}

function humanMove(c) {
  const v = play.view;
  if (!v || v.to_move !== play.human || !v.open[c - 1] || job?.kind === "engine-move") return;
  cancelJob();
  play.moves.push(c - 1);
  play.scores = null; play.hint = null; play.said = "";
  refresh();
}

async function engineMove() {
  const level = Number($("play-level").value);
  play.stopped = false;
  const ply = play.moves.length, game = play.game;
  const a = await ask("engine-move", { level, seed: (play.seed + ply) >>> 0 }, () => `The engine (${LEVELS[level]}) is thinking`);
  // A new game, or another move, since the question: the answer is not this game's.
  if (play.game !== game || play.moves.length !== ply) return;
  if (a === null) {
    // Cancelled: the engine's turn waits until the player says.
    play.stopped = true;
    refresh();
    return;
  }
  if (a.error) { play.stopped = true; play.said = `The engine could not move: ${a.error}.`; refresh(); return; }
  play.moves.push(a.column - 1);
  play.said = `The engine (${LEVELS[level]}) played column ${a.column}: ${a.evaluation}.`;
  refresh();
}

/**
 * Each open column's exact score, shown as they come: the columns shared
 * among the workers, each taking the next when it is done.
 */
async function showScores() {
  const moves = play.moves.join(","), game = play.game;
  const columns = play.view.open.map((open, i) => (open ? i : -1)).filter((c) => c >= 0);
  play.scores = play.view.open.map(() => null);
  play.scoresDone = false;
  let done = 0;
  drawColumns();
  document.body.dataset.scores = "solving";
  const parts = columns.map((column) => ({ column }));
  const answers = await askEach("score", parts, WORKERS, () => `Solving the scores: ${done} of ${columns.length} columns`, (part, a) => {
    // Another game or move since the question: its scores are not shown.
    if (play.game !== game || play.moves.join(",") !== moves) return;
    play.scores[columns[part]] = a.score;
    done += 1;
    drawColumns();
  });
  if (answers === null || play.game !== game || play.moves.join(",") !== moves) return;
  if (answers.error) { play.said = `The scores could not be had: ${answers.error}.`; $("play-said").textContent = play.said; return; }
  play.scoresDone = true;
  document.body.dataset.scores = "shown";
  document.body.dataset.scoresAt = play.view.position ?? "";
}

async function hint() {
  const moves = play.moves.join(","), game = play.game;
  const a = await ask("hint", { level: 2, seed: 0 }, () => "The perfect engine looks for your best move");
  if (a === null || play.game !== game || play.moves.join(",") !== moves) return;
  if (a.error) { play.said = `No hint: ${a.error}.`; }
  else {
    play.hint = a.column;
    play.said = `Hint: column ${a.column} (${a.evaluation}).`;
  }
  $("play-said").textContent = play.said;
  drawColumns();
  if ($("play-scores").checked && !play.scoresDone) showScores();
}

function undo() {
  const i = lastHumanMove();
  if (i < 0) return;
  cancelJob();
  play.moves = play.moves.slice(0, i);
  play.scores = null; play.hint = null; play.stopped = false;
  play.said = "Took back your last move.";
  refresh();
}

function setupPlay() {
  for (let i = 0; i < WORKERS; i++) startWorker(i);
  document.body.dataset.workers = String(WORKERS);
  $("tab-play").addEventListener("click", warmBook);
  $("play-new").addEventListener("click", newGame);
  $("play-undo").addEventListener("click", undo);
  $("play-hint").addEventListener("click", hint);
  $("play-cancel").addEventListener("click", () => {
    const cancelled = cancelJob();
    if (cancelled?.kind === "score") document.body.dataset.scores = "cancelled";
    updateButtons();
    drawColumns();
  });
  $("play-resume").addEventListener("click", () => { play.stopped = false; refresh(); });
  $("play-scores").addEventListener("change", (e) => {
    if (e.target.checked) { if (play.view?.to_move === play.human) showScores(); }
    else {
      if (job?.kind === "score") cancelJob();
      play.scores = null;
      drawColumns();
    }
  });
  $("play-judge").addEventListener("click", () => {
    if (!play.view) return;
    $("paste").value = play.view.file;
    $("file").value = "";
    tab("game");
    judge(new Blob([play.view.file]), "your game against the engine");
  });
  // Whatever moves the picture (the window, a line of text wrapping) moves the buttons with it.
  window.addEventListener("resize", align);
  new ResizeObserver(align).observe($("play-area").parentElement);
  newGame();
}

async function start() {
  const bytes = Uint8Array.from(atob(WASM), (c) => c.charCodeAt(0));
  wasmModule = await WebAssembly.compile(bytes);
  ex = (await WebAssembly.instantiate(wasmModule, CLOCK)).exports;
  REPLAY_BYTES = ex.cz_replay_bytes();
  const samples = answer(ex.cz_samples());
  for (const s of samples) {
    const b = document.createElement("button");
    b.textContent = `${s.code}: ${MEANINGS[s.code]}`;
    b.dataset.code = String(s.code);
    b.addEventListener("click", () => {
      $("paste").value = s.text;
      $("file").value = "";
      judge(new Blob([s.text]), `brief sample ${s.code}`);
    });
    $("samples").append(b);
  }
  $("file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) judge(f, f.name);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault(); drop.classList.remove("over");
    const f = e.dataTransfer.files[0];
    if (f) judge(f, f.name);
  });
  $("judge-paste").addEventListener("click", () => ($("file").value = "") || judge(new Blob([$("paste").value]), "pasted text"));
  $("move").addEventListener("input", (e) => step(Number(e.target.value)));
  $("prev").addEventListener("click", () => step(Number($("move").value) - 1));
  $("next").addEventListener("click", () => step(Number($("move").value) + 1));
  document.addEventListener("keydown", (e) => {
    // Inputs keep their own keys (the slider steps itself).
    if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
    if ($("game").classList.contains("hidden")) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); step(Number($("move").value) - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); step(Number($("move").value) + 1); }
  });
  $("tab-game").addEventListener("click", () => tab("game"));
  $("tab-snapshot").addEventListener("click", () => tab("snapshot"));
  $("judge-grid").addEventListener("click", judgeGrid);
  $("tab-play").addEventListener("click", () => tab("play"));
  setupPlay();
  $("replay").classList.add("hidden");
  document.body.dataset.state = "ready";
}
start().catch((e) => { document.body.dataset.state = "failed"; $("meaning").textContent = "The judge did not load: " + e; });
