// Makes the page one self-contained HTML file, with no network access at
// runtime: each line `@inline FILE` of the template is replaced by that
// file (beside the template: the style sheet, the worker's script, the
// judge's and the play tab's scripts), then the judge's WebAssembly is
// inlined at its marker. Called by web/build.sh.
//   node web/build.mjs JUDGE.wasm TEMPLATE.html OUT.html
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

const [wasmPath, templatePath, outPath] = process.argv.slice(2);
const wasm = readFileSync(wasmPath);
const template = readFileSync(templatePath, "utf8").replace(
  /^@inline (\S+)$/gm,
  (_, file) => readFileSync(join(dirname(templatePath), file), "utf8").replace(/\n$/, ""),
);
const marker = "__CONNECTZ_WASM_BASE64__";
if (template.split(marker).length !== 2) {
  throw new Error(`${templatePath}: expected the marker ${marker} exactly once`);
}
const page = template.replace(marker, () => wasm.toString("base64"));
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, page);
console.log(`${outPath}: ${page.length} bytes (judge ${wasm.length} bytes of WebAssembly)`);
