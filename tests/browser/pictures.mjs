// Opens every picture of a folder in Debian's Chromium (headless, no browser
// downloaded) and checks, with the browser's own layout, that no text leaves
// the picture: the bounding box of every <text> must lie inside the SVG's
// viewBox. Also fails on console errors, and saves screenshots of a small, a
// windowed huge and an error board, in the light and the dark theme.
//
//     node tests/browser/pictures.mjs target/pictures target/pictures/screens

import { launch, watchedPage } from "./chromium.mjs";
import { readdirSync, readFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir = "target/pictures", shots = join(dir, "screens")] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });

const browser = await launch();
const { page, errors } = await watchedPage(browser);

// The folder must hold exactly the pictures the example says it drew.
const listed = readFileSync(join(dir, "pictures.txt"), "utf8").split("\n").filter((l) => l).sort();
const files = readdirSync(dir).filter((f) => f.endsWith(".svg")).sort();
const failures = [];
if (listed.length === 0) failures.push(`no pictures listed in ${dir}/pictures.txt`);
if (new Set(listed).size !== listed.length) failures.push("two pictures share a file name");
for (const f of listed) if (!files.includes(f)) failures.push(`${f}: listed but missing`);
for (const f of files) if (!listed.includes(f)) failures.push(`${f}: not listed`);
let texts = 0;
for (const file of files) {
  await page.goto(pathToFileURL(resolve(dir, file)).href);
  const result = await page.evaluate(() => {
    const svg = document.documentElement;
    const box = svg.viewBox.baseVal;
    const out = [];
    const all = [...svg.querySelectorAll("text")];
    for (const t of all) {
      const b = t.getBBox();
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > box.width + 0.5 || b.y + b.height > box.height + 0.5) {
        out.push(`"${t.textContent.slice(0, 40)}" at ${b.x.toFixed(1)},${b.y.toFixed(1)} size ${b.width.toFixed(1)}x${b.height.toFixed(1)} in ${box.width}x${box.height}`);
      }
    }
    const title = svg.querySelector("title")?.textContent ?? "";
    const desc = svg.querySelector("desc")?.textContent ?? "";
    return { out, count: all.length, title, desc };
  });
  texts += result.count;
  if (!result.title || !result.desc) failures.push(`${file}: no title or desc`);
  for (const o of result.out) failures.push(`${file}: text outside the picture: ${o}`);
}

// Screenshots, light and dark, of three kinds of picture.
const chosen = [
  ["small", "1-win-player-1-diagonal-txt.svg"],
  ["huge", "huge-frame-a-win-far-out.svg"],
  ["error", "8-invalid-file-double-space-txt.svg"],
  ["full", "5-illegal-row-filled-after-win-txt.svg"],
  ["past", "6-illegal-column-brief-sample-txt.svg"],
];
for (const scheme of ["light", "dark"]) {
  await page.emulateMedia({ colorScheme: scheme });
  for (const [kind, file] of chosen) {
    await page.goto(pathToFileURL(resolve(dir, file)).href);
    await page.locator("svg").screenshot({ path: join(shots, `${kind}-${scheme}.png`) });
  }
}
await browser.close();

for (const e of errors) failures.push(`console: ${e}`);
if (failures.length > 0) {
  console.error(failures.join("\n"));
  console.error(`${failures.length} problems in ${files.length} pictures`);
  process.exit(1);
}
console.log(`${files.length} pictures, ${texts} texts, all inside; screenshots in ${shots}`);
