/**
 * Counts a page's requestAnimationFrame calls in `window.__rafCalls`, from its first script on: how
 * the idle checks (tests/e2e/app.test.ts, bench/app-idle.ts) see whether a paused app's draw loop
 * has stopped asking for frames.
 */
import type { BrowserContext } from 'playwright-core';

export async function countAnimationFrames(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as any;
    const raf = window.requestAnimationFrame.bind(window);
    w.__rafCalls = 0;
    window.requestAnimationFrame = (cb: FrameRequestCallback) => {
      w.__rafCalls++;
      return raf(cb);
    };
  });
}
