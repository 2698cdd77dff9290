/**
 * vitest global setup: names the suites this run skips, and how to enable them, first and last;
 * and, where Chromium is installed, opens the app servers every browser test file of the run shares
 * (tests/e2e/app-server.ts: the app built once a run, vite's dev server, and one Chromium, each
 * started on first use, so runs without browser tests pay for none of them).
 */
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { serveApp, type SharedApp } from './e2e/app-server.ts';
import { CHROMIUM, skippedSuitesReport } from './skips.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const lines = skippedSuitesReport();
  const say = () => {
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n\n`);
  };
  say();
  let app: SharedApp | null = null;
  if (existsSync(CHROMIUM)) {
    app = await serveApp(CHROMIUM);
    project.provide('appUrl', app.url);
    project.provide('devAppUrl', app.devUrl);
  }
  return async () => {
    await app?.close();
    say();
  };
}
