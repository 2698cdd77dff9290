/**
 * The plain level set's volume step by step on tests/grid/body-hang.test.ts's splash: after every frame
 * the volume (levelset-volume.ts's estimator) against what was put in, before and after the step's
 * volume correction, and the correction's shift (the mean and the largest of the frame's steps).
 *   npx tsx bench/grid-volume-steps.ts [draw=0] [frames=36] [off]
 * `off`: scene.grid.volumeCorrection false (the volume as the transport and redistancing leave it).
 */
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { LevelSetTracker } from '../src/grid/trackers/levelset.ts';
import { levelSetVolume } from '../src/grid/levelset-volume.ts';
import { bodyHangScene } from '../tests/grid/body-hang.ts';

const k = Number(process.argv[2] ?? 0), frames = Number(process.argv[3] ?? 36), off = process.argv.includes('off');
const th = (2 * Math.PI * k) / ((3 + Math.sqrt(5)) / 2), shift = 1e-4;
const sh: [number, number] = k === 0 ? [0, 0] : [shift * Math.cos(th), shift * Math.sin(th)];
const json = bodyHangScene('throw', 0.025, sh) as { grid: Record<string, unknown> };
if (off) json.grid.volumeCorrection = false;
const sim = new GridSimulation(parseScene(json));
sim.initialize();
const v0 = sim.tracker.volume(sim);
let before: number[] = [], shifts: number[] = [];
const proto = LevelSetTracker.prototype as unknown as { correctVolume(s: GridSimulation, dt: number): void };
const orig = proto.correctVolume;
proto.correctVolume = function (this: LevelSetTracker, s: GridSimulation, dt: number) {
  const b = levelSetVolume(s.store, s.d.h);
  before.push(b / v0 - 1);
  orig.call(this, s, dt);
  shifts.push((levelSetVolume(s.store, s.d.h) - b) / v0);
};
const pct = (x: number) => (100 * x).toFixed(1);
let sum = 0, worst = 0;
for (let f = 1; f <= frames; f++) {
  before = []; shifts = [];
  const st = sim.stepFrame();
  const dv = sim.tracker.volume(sim) / v0 - 1;
  if (f > 18) { sum += Math.abs(dv); worst = Math.max(worst, Math.abs(dv)); }
  const vs = st.counters.volumeShift;
  console.log(`frame ${f}: ΔV ${pct(dv)} %, before the correction ${before.map(pct).join(' ')} %, its gain ${shifts.map(pct).join(' ')} %, shift ${vs === undefined ? '-' : (1e3 * vs).toFixed(2)} mm`);
}
console.log(`frames 19-${frames}: mean |ΔV| ${pct(sum / (frames - 18))} %, largest ${pct(worst)} %`);
