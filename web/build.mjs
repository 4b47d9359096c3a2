// Inlines the judge's WebAssembly into the page: one self-contained HTML
// file, no network access at runtime. Called by web/build.sh.
//   node web/build.mjs JUDGE.wasm TEMPLATE.html OUT.html
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

const [wasmPath, templatePath, outPath] = process.argv.slice(2);
const wasm = readFileSync(wasmPath);
const template = readFileSync(templatePath, "utf8");
const marker = "__CONNECTZ_WASM_BASE64__";
if (template.split(marker).length !== 2) {
  throw new Error(`${templatePath}: expected the marker ${marker} exactly once`);
}
const page = template.replace(marker, wasm.toString("base64"));
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, page);
console.log(`${outPath}: ${page.length} bytes (judge ${wasm.length} bytes of WebAssembly)`);
