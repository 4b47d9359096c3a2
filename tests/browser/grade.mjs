// Opens the HTML report of `cz grade` in Debian's Chromium (headless, no
// browser downloaded) and checks it as a reviewer would see it: the
// leaderboard's rows in the order of the JSON report's ranks (and of the
// fixture class's known order), every board picture decoded, every rule
// link landing on its clause, no text outside the chart, no console error;
// the JUnit report parses as XML with a suite per candidate. Saves
// screenshots (light and dark) of the leaderboard, the speed chart and a
// candidate's failures.
//
//     node tests/browser/grade.mjs REPORT.html REPORT.json REPORT.xml SCREENS

import { launch, watchedPage } from "./chromium.mjs";
import { readFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [html, json, junit, shots] = process.argv.slice(2);
if (!shots) {
  console.error("usage: node grade.mjs REPORT.html REPORT.json REPORT.xml SCREENS");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const report = JSON.parse(readFileSync(json, "utf8"));
const ranked = report.candidates.map((c) => c.name);
const failures = [];
const expect = (ok, what) => {
  if (!ok) failures.push(what);
};

const browser = await launch();
const { page, errors } = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
// A self-contained page asks for nothing over the network.
const requests = [];
page.on("request", (r) => {
  if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) requests.push(r.url());
});
await page.goto(pathToFileURL(resolve(html)).href);

const seen = await page.evaluate(async () => {
  const rows = [...document.querySelectorAll("#leaderboard tbody tr")];
  const cell = (tr, i) => tr.children[i].textContent.trim();
  // Open every group and board, so that every picture is laid out.
  document.querySelectorAll("details").forEach((d) => (d.open = true));
  const images = [...document.querySelectorAll("img.board")];
  await Promise.all(images.map((img) => (img.complete ? null : new Promise((r) => { img.onload = r; img.onerror = r; }))));
  const broken = images.filter((img) => !(img.naturalWidth > 0)).map((img) => img.alt);
  const links = [...document.querySelectorAll('a[href^="#clause-"]')];
  const dangling = links.filter((a) => !document.getElementById(a.getAttribute("href").slice(1))).map((a) => a.textContent);
  const chart = document.querySelector("svg.chart");
  let outside = [];
  if (chart) {
    const box = chart.viewBox.baseVal;
    outside = [...chart.querySelectorAll("text")]
      .map((t) => [t.textContent, t.getBBox()])
      .filter(([, b]) => b.x < -0.5 || b.y < -0.5 || b.x + b.width > box.width + 0.5 || b.y + b.height > box.height + 0.5)
      .map(([t]) => t);
  }
  return {
    names: rows.map((tr) => tr.dataset.candidate),
    defined: rows.map((tr) => Number(cell(tr, 2))),
    sections: [...document.querySelectorAll("section.candidate")].map((s) => s.dataset.candidate),
    images: images.length,
    broken,
    links: links.length,
    dangling,
    chart: Boolean(chart),
    outside,
    title: document.title,
  };
});

expect(JSON.stringify(seen.names) === JSON.stringify(ranked), `leaderboard ${seen.names} is not the JSON's ranking ${ranked}`);
expect(JSON.stringify(seen.sections) === JSON.stringify(ranked), `sections ${seen.sections} are not in rank order`);
expect(seen.defined.every((n, i) => i === 0 || seen.defined[i - 1] <= n), `defined failures not ascending: ${seen.defined}`);
// The reference and the candidate whose only differences are impl notes
// both pass every defined case; fewer notes rank first, whatever the speed.
expect(
  JSON.stringify(seen.names.slice(0, 2)) === JSON.stringify(["reference", "empty-is-incomplete"]),
  `the two clean candidates are not first, the one without notes leading: ${seen.names}`
);
expect(seen.names.at(-1) === "full-scan", `the Python full scan is not last: ${seen.names}`);
expect(seen.defined[0] === 0, "the reference has defined failures");
expect(seen.images > 10, `only ${seen.images} board pictures`);
expect(seen.broken.length === 0, `pictures that do not decode: ${seen.broken.slice(0, 5)}`);
expect(seen.links > 10 && seen.dangling.length === 0, `rule links: ${seen.links}, dangling ${seen.dangling.slice(0, 5)}`);
expect(report.workloads === null || seen.chart, "no speed chart although --perf");
expect(seen.outside.length === 0, `chart text outside the chart: ${seen.outside.slice(0, 5)}`);
expect(seen.title.startsWith("ConnectZ grade"), `title ${seen.title}`);

// The JUnit report, read by the browser's XML parser.
const xml = readFileSync(junit, "utf8");
const parsed = await page.evaluate((text) => {
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.querySelector("parsererror")) return { error: doc.querySelector("parsererror").textContent };
  const suites = [...doc.querySelectorAll("testsuite")];
  return {
    suites: suites.map((s) => s.getAttribute("name")),
    cases: doc.querySelectorAll("testcase").length,
    failures: Number(doc.documentElement.getAttribute("failures")),
  };
}, xml);
expect(!parsed.error, `the JUnit report is not XML: ${parsed.error}`);
expect(JSON.stringify([...(parsed.suites ?? [])].sort()) === JSON.stringify([...ranked].sort()), `JUnit suites ${parsed.suites}`);
expect(parsed.cases > ranked.length * 100, `only ${parsed.cases} JUnit test cases`);
expect(parsed.failures > 0, "no JUnit failures for a class with broken candidates");

// Screenshots, light and dark: the top, the chart, a candidate's failures.
await page.goto(pathToFileURL(resolve(html)).href);
for (const scheme of ["light", "dark"]) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(shots, `grade-top-${scheme}.png`) });
  if (seen.chart) await page.locator("#speed").screenshot({ path: join(shots, `grade-speed-${scheme}.png`) });
  const broken = report.candidates.find((c) => c.groups.some((g) => g.counts));
  const rank = report.candidates.indexOf(broken) + 1;
  await page.locator(`#candidate-${rank} details.group`).first().screenshot({ path: join(shots, `grade-group-${scheme}.png`) });
}
await browser.close();

for (const e of errors) failures.push(`console: ${e}`);
for (const r of requests) failures.push(`network request: ${r}`);
if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(
  `${ranked.length} candidates in order, ${seen.images} board pictures, ${seen.links} rule links, ${parsed.cases} JUnit test cases; screenshots in ${shots}`
);
