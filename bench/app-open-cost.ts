/**
 * What opening the app costs Chromium, by the scene it opens on: the built app and one Chromium
 * (tests/e2e/harness.ts startApp, outside vitest: its own server and browser), a page opened paused
 * on each query in turn, ROUNDS times alternated, each until its first frame with data
 * (`__viscid.ready`); Chromium's CPU (its process tree, tests/e2e/app-server.ts
 * processTreeCpuSeconds) before and after each, the page closed between.
 *   npx tsx bench/app-open-cost.ts [ROUNDS] [QUERY…]
 * e.g. npx tsx bench/app-open-cost.ts 2 '?paused' '?paused&scene=honey-on-spinner'
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startApp } from '../tests/e2e/harness.ts';
import { processTreeCpuSeconds } from '../tests/e2e/app-server.ts';

const [roundsArg, ...rest] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 2);
const queries = rest.length ? rest : ['?paused', '?paused&scene=honey-on-spinner'];
const app = await startApp();
const browserPid = (): number => {
  // The Chromium that startApp's server launched: this process's child running chrom*.
  const out = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
  for (const pid of out) {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmd.includes('chrom')) return pid;
  }
  throw new Error('no Chromium child');
};
try {
  const pid = browserPid();
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const c0 = processTreeCpuSeconds(pid)!;
      const t0 = Date.now();
      const page = await app.open(q);
      const c1 = processTreeCpuSeconds(pid)!;
      console.log(`${q}: ${(c1 - c0).toFixed(1)} s of Chromium's CPU to the first frame, ${((Date.now() - t0) / 1000).toFixed(1)} s wall, load ${loadavg()[0].toFixed(1)}`);
      await page.close();
    }
  }
} finally {
  await app.close();
}
