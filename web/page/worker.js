"use strict";
// A worker of the play tab: its own instance of the page's module, for the
// engine's moves and the scores, which may take long. The page ends the
// worker to cancel and starts another.
let ready = null;
const encoder = new TextEncoder(), decoder = new TextDecoder();
onmessage = ({ data }) => {
  if (data.module) {
    ready = WebAssembly.instantiate(data.module, { connectz: { cz_now_ms: () => performance.now() } })
      .then((instance) => instance.exports);
    return;
  }
  if (data.warm) {
    // The opening book, read before the first question that needs it.
    ready.then((ex) => postMessage({ warmed: ex.cz_play_warm() }), () => {});
    return;
  }
  ready.then((ex) => {
    const { id, kind, width, height, z, moves } = data;
    let n;
    try {
      const p = ex.cz_buffer(moves.length);
      new Uint8Array(ex.memory.buffer, p, moves.length).set(moves);
      n = kind === "score"
        ? ex.cz_play_score(moves.length, width, height, z, data.column)
        : ex.cz_play_engine(moves.length, width, height, z, data.level, data.seed);
      const answer = JSON.parse(decoder.decode(new Uint8Array(ex.memory.buffer, ex.cz_output(), n)));
      postMessage({ id, answer });
    } catch (e) {
      postMessage({ id, answer: { error: "the engine stopped: " + e }, broken: true });
    }
  }, (e) => postMessage({ id: data.id, answer: { error: "the engine did not load: " + e }, broken: true }));
};
