/**
 * The CPU a paused app costs: Chromium's CPU time (its whole process tree, as .ci/run's figure is
 * read: tests/e2e/app-server.ts processTreeCpuSeconds) over `--seconds` with the built app open
 * on the honey drop at frame 0 (`?paused`), after `--settle` seconds for it to load and settle, and
 * the requestAnimationFrame calls the page made in that time (counted by an init script). Each
 * checkout given is built (vite build, by its own tests/e2e/app-server.ts) and measured in a
 * Chromium of its own, one after the other, `--rounds` times alternated.
 *
 *   npx tsx bench/app-idle.ts [--seconds 30] [--settle 10] [--rounds 1] [CHECKOUT ...]   (default: this one)
 *
 * e.g. `npx tsx bench/app-idle.ts /work/main .` compares the base with this branch.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../tests/skips.ts';
import { countAnimationFrames } from '../tests/e2e/raf-count.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const seconds = Number(arg('seconds', '30'));
const settle = Number(arg('settle', '10'));
const rounds = Number(arg('rounds', '1'));
const checkouts = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
if (checkouts.length === 0) checkouts.push('.');

type AppServer = typeof import('../tests/e2e/app-server.ts');

async function measure(checkout: string): Promise<{ checkout: string; cpuSeconds: number; coreFraction: number; rafCalls: number; draws: number }> {
  const server = (await import(pathToFileURL(resolve(checkout, 'tests/e2e/app-server.ts')).href)) as AppServer;
  const app = await server.serveApp(CHROMIUM);
  const browserServer = await server.launchSharedChromium(CHROMIUM);
  try {
    const pid = browserServer.process().pid!;
    const browser = await chromium.connect(browserServer.wsEndpoint());
    const context = await browser.newContext({ viewport: { width: 960, height: 600 }, deviceScaleFactor: 1 });
    await countAnimationFrames(context);
    const page = await context.newPage();
    await page.goto(app.url + '?paused', { timeout: 600_000 });
    await page.waitForFunction(() => (window as any).__viscid?.ready === true, undefined, { timeout: 600_000, polling: 250 });
    await page.waitForTimeout(settle * 1000);
    const read = () => page.evaluate(() => ({ raf: (window as any).__rafCalls as number, draws: (window as any).__viscid.renderFrames as number }));
    const a = await read();
    const cpu0 = server.processTreeCpuSeconds(pid)!;
    await page.waitForTimeout(seconds * 1000);
    const cpu1 = server.processTreeCpuSeconds(pid)!;
    const b = await read();
    await context.close();
    await browser.close();
    return { checkout, cpuSeconds: +(cpu1 - cpu0).toFixed(2), coreFraction: +((cpu1 - cpu0) / seconds).toFixed(3), rafCalls: b.raf - a.raf, draws: b.draws - a.draws };
  } finally {
    await browserServer.close();
    await app.close();
  }
}

for (let r = 0; r < rounds; r++) for (const c of checkouts) console.log(JSON.stringify({ round: r, seconds, ...(await measure(c)) }));
