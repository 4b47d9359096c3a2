"use strict";
// The judge, compiled to WebAssembly from the connectz-web crate, inlined by web/build.mjs.
const WASM = "__CONNECTZ_WASM_BASE64__";
/** Files up to this size are kept for replay (connectz_web::REPLAY_BYTES, read at start). */
let REPLAY_BYTES = 0;
const MEANINGS = ["draw", "win for player 1", "win for player 2", "incomplete", "illegal continue",
  "illegal row", "illegal column", "illegal game", "invalid file", "file error"];

const $ = (id) => document.getElementById(id);
let ex = null;
const encoder = new TextEncoder(), decoder = new TextDecoder();
let replay = null; // { bytes, name, total }

function put(u8) {
  const p = ex.cz_buffer(u8.length);
  new Uint8Array(ex.memory.buffer, p, u8.length).set(u8);
}
function answer(n) {
  return JSON.parse(decoder.decode(new Uint8Array(ex.memory.buffer, ex.cz_output(), n)));
}

/** Judges a Blob (a File, or pasted text) as a stream, in bounded memory. */
async function judge(blob, name) {
  document.body.dataset.state = "judging";
  const started = performance.now();
  const keep = blob.size <= REPLAY_BYTES ? new Uint8Array(blob.size) : null;
  let kept = 0;
  put(encoder.encode(name));
  ex.cz_begin(encoder.encode(name).length);
  const reader = blob.stream().getReader();
  let read = 0, shown = 0, turns = 0;
  const progress = $("progress");
  progress.classList.toggle("hidden", blob.size < (8 << 20));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
    // Every 4 MiB, say how far it is and give the page a turn (buffered
    // chunks resolve without one), so it stays responsive on a large file.
    if (read - shown >= 4 << 20) {
      shown = read;
      progress.value = read / blob.size;
      $("source").textContent = `${name}: ${(read / 1e6).toFixed(0)} of ${(blob.size / 1e6).toFixed(0)} MB read`;
      await (globalThis.scheduler?.yield?.() ?? new Promise((r) => setTimeout(r, 0)));
      turns += 1;
    }
    if (keep) { keep.set(value, kept); kept += value.length; }
    // Chunks of at most 1 MiB, so the page's copy stays small too.
    let settled = false;
    for (let at = 0; at < value.length && !settled; at += 1 << 20) {
      const part = value.subarray(at, Math.min(value.length, at + (1 << 20)));
      put(part);
      settled = ex.cz_feed(part.length) === 1;
    }
    if (settled && !keep) { await reader.cancel(); break; }
  }
  progress.classList.add("hidden");
  const result = answer(ex.cz_end());
  const ms = performance.now() - started;
  show(result, name, read, ms);
  replay = keep ? { bytes: keep.subarray(0, kept), name, total: result.moves } : null;
  setupReplay(result);
  document.body.dataset.ms = ms.toFixed(1);
  document.body.dataset.turns = String(turns);
  document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
  document.body.dataset.state = "done";
}

function show(r, name, bytes, ms) {
  const code = $("code");
  code.textContent = String(r.code);
  code.className = r.code === 1 || r.code === 2 ? "code-win" : r.code === 0 ? "" : r.code === 3 ? "code-open" : "code-fault";
  $("meaning").textContent = MEANINGS[r.code] ?? r.name;
  $("source").textContent = `${name}: ${bytes.toLocaleString("en")} bytes judged in ${ms.toFixed(0)} ms`;
  $("rule").textContent = r.rule;
  $("line").textContent = r.line == null ? "(the whole file)" : `line ${r.line}`;
  $("why").textContent = r.reason;
  $("clause").textContent = r.clause ? `${r.clause.id} (spec/${r.clause.file})\n${r.clause.text}` : "";
  drawBoard(r.svg);
}

/** The picture in a shadow root: its own stylesheet stays its own. */
function drawBoard(svg) {
  const host = $("board");
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  root.innerHTML = "<style>svg { max-width: 100%; height: auto; max-height: 70vh; }</style>" + svg;
}

function setupReplay(r) {
  const slider = $("move");
  if (!replay) {
    $("replay").classList.add("hidden");
    $("replay-note").textContent = r.moves > 0
      ? `The final board. Files over ${REPLAY_BYTES >> 20} MiB are judged as a stream and not kept, so they are not replayed.`
      : "";
    return;
  }
  $("replay").classList.remove("hidden");
  slider.max = String(r.moves);
  slider.value = String(r.moves);
  $("move-label").textContent = `move ${r.moves} of ${r.moves}`;
  $("replay-note").textContent = r.moves > 0 ? "Step through the game with the slider or the arrow keys." : "";
}

function step(to) {
  if (!replay) return;
  const k = Math.max(0, Math.min(replay.total, to));
  $("move").value = String(k);
  const name = encoder.encode(replay.name);
  const both = new Uint8Array(replay.bytes.length + name.length);
  both.set(replay.bytes); both.set(name, replay.bytes.length);
  put(both);
  const r = answer(ex.cz_replay(replay.bytes.length, name.length, k));
  drawBoard(r.svg);
  $("move-label").textContent = `move ${r.moves} of ${replay.total}` + (k < replay.total ? ` (so far: code ${r.code}, ${MEANINGS[r.code]})` : "");
  document.body.dataset.shown = String(r.moves);
}

function judgeGrid() {
  const grid = encoder.encode($("grid").value);
  put(grid);
  const cp = (s) => s.length ? s.codePointAt(0) : 0;
  const r = answer(ex.cz_board(grid.length, Number($("z").value) || 4, cp($("first").value), cp($("empty").value), $("gravity").checked ? 1 : 0));
  $("snapshot-answer").textContent = r.error ? "cannot judge this grid" : r.answer + (r.to_move ? ` (${r.to_move} to move)` : "");
  $("snapshot-why").textContent = r.error ?? r.why ?? "";
  document.body.dataset.board = r.error ? "error" : r.answer;
}

function tab(which) {
  for (const [t, panel] of [["tab-game", "game"], ["tab-snapshot", "snapshot"], ["tab-play", "play"]]) {
    $(t).setAttribute("aria-selected", String(panel === which));
    $(panel).classList.toggle("hidden", panel !== which);
  }
  if (which === "play") align();
}

