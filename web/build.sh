#!/usr/bin/env bash
# Builds web/dist/connectz.html: the judge compiled to WebAssembly, inlined
# into one self-contained page. Needs the wasm32 target and Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
cargo build --locked --release --target wasm32-unknown-unknown -p connectz-web
node web/build.mjs target/wasm32-unknown-unknown/release/connectz_web.wasm \
  web/page/connectz.html web/dist/connectz.html
