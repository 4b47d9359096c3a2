// Debian's Chromium, headless, started as every browser test here starts
// it (no browser is downloaded; no background network), and a page whose
// console errors and uncaught exceptions are collected.

import { chromium } from "playwright-core";

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

// A new page of `browser` and the list its errors are pushed to.
export async function watchedPage(browser, options = {}) {
  const page = await browser.newPage(options);
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return { page, errors };
}
