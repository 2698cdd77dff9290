/**
 * A bench's frame loop timed in this process's CPU time (process.cpuUsage, every thread), so a
 * shared machine slows it less than the wall clock: `frames` frames stepped one at a time, and
 * after each the caller's `after(f, msPerFrame, due)`, where `msPerFrame` is the CPU a frame so
 * far (stepping only, not what `after` does) and `due` is true on every `every`-th frame and the
 * last, the frames a bench prints. Used by bench/grid-film-disc.ts, grid-film-rim.ts and
 * grid-rim-variants.ts.
 */

/** Steps `sim` `frames` times, calling `after` after each step with its CPU a frame so far. */
export function timedFrames(
  sim: { stepFrame(): void },
  frames: number,
  every: number,
  after: (f: number, msPerFrame: number, due: boolean) => void,
): void {
  let cpu = 0;
  for (let f = 1; f <= frames; f++) {
    const c0 = process.cpuUsage();
    sim.stepFrame();
    const c1 = process.cpuUsage(c0);
    cpu += (c1.user + c1.system) / 1000;
    after(f, cpu / f, f % every === 0 || f === frames);
  }
}
