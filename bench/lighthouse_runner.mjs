// Runs a list of Lighthouse audits in one Node process on one Chromium, each written as
// Lighthouse JSON (what `lighthouse --output=json --output-path=...` writes).
// Why not the CLI once per audit: its start-up alone took 2-4 s on the 2-core machine,
// and with a fresh Chromium each time 42 audits would not fit `make bench`'s 15 minutes.
// Lighthouse still clears the cache and the origin's storage before every audit.
//
// Usage: node lighthouse_runner.mjs <node_modules with lighthouse> <jobs.json>
// jobs.json: {"chromeFlags": [...], "jobs": [{"url", "preset": "mobile"|"desktop", "output"}]}
// Prints one JSON line per finished audit: {"output", "error"}.
import fs from "node:fs";
import path from "node:path";
import {pathToFileURL} from "node:url";

const [modules, jobsPath] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(modules, file)).href);
const {default: lighthouse} = await load("lighthouse/core/index.js");
const {default: desktopConfig} = await load("lighthouse/core/config/desktop-config.js");
const chromeLauncher = await load("chrome-launcher/dist/index.js");

const {chromeFlags, jobs} = JSON.parse(fs.readFileSync(jobsPath, "utf8"));
const chrome = await chromeLauncher.launch({chromeFlags, chromePath: process.env.CHROME_PATH});
try {
  for (const job of jobs) {
    let error = null;
    try {
      // The same settings as the CLI with --preset=desktop or without a preset (mobile).
      const config = job.preset === "desktop" ? desktopConfig : undefined;
      const flags = {port: chrome.port, output: "json", logLevel: "error",
                     // Not part of any score; saves about a second per audit.
                     disableFullPageScreenshot: true};
      const result = await lighthouse(job.url, flags, config);
      fs.writeFileSync(job.output, result.report);
      error = result.lhr.runtimeError ? result.lhr.runtimeError.message : null;
    } catch (thrown) {
      error = String(thrown && thrown.stack || thrown);
    }
    console.log(JSON.stringify({output: job.output, error}));
  }
} finally {
  await chrome.kill();
}
