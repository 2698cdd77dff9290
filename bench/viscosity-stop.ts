/**
 * The implicit viscosity's stop test against a converged solve, on the states the stage is handed
 * in a run (viscosity-weiler.ts viscosityStop.probe: every call of frames first–last):
 *   npx tsx bench/viscosity-stop.ts [scene] [firstFrame] [lastFrame] [reach]
 * (defaults: the honey drop, frames 6–11; reach sets every liquid's particle.kernelReach). At each
 * call the stage is run from the same state (velocities and the warm start) to convergence
 * (|r| ≤ 1e-10 |b − A v*|) and under each stop test below; for each it prints the CG iterations a
 * solve, the CPU ms a call, and the error of the velocities after the stage against the converged
 * ones, relative to the change the converged solve makes (2-norms over the particles: mean and
 * largest over the calls). The run itself steps with the stage's own test (VISCOSITY_TOLERANCE).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createSimulation, parseScene } from '../src/index.ts';
import { applyImplicitViscosity, viscosityStop, VISCOSITY_TOLERANCE } from '../src/particle/viscosity-weiler.ts';
import type { StepContext } from '../src/particle/context.ts';

const args = process.argv.slice(2);
const file = args[0] ?? 'scenes/honey-drop.json', first = Number(args[1] ?? 6), last = Number(args[2] ?? 11);
const reach = args[3] === undefined ? undefined : Number(args[3]);
const json = JSON.parse(readFileSync(file, 'utf8'));
if (reach !== undefined) {
  for (const m of Object.values(json.materials) as { kind: string; particle?: Record<string, unknown> }[]) {
    if (m.kind === 'liquid') m.particle = { ...m.particle, kernelReach: reach };
  }
}
const tests: { name: string; tol: number; onB: boolean }[] = [
  { name: '1 % of |b − A v*| (main)', tol: 0.01, onB: false },
  { name: '1.5 % of |b − A v*|', tol: 0.015, onB: false },
  { name: '2 % of |b − A v*|', tol: 0.02, onB: false },
  { name: '3 % of |b − A v*|', tol: 0.03, onB: false },
  { name: '5 % of |b − A v*|', tol: 0.05, onB: false },
  { name: '1 % of |b| (peer at 1 %)', tol: 0.01, onB: true },
  { name: '5 % of |b| (peer, viscoMaxError)', tol: 0.05, onB: true },
];
const its = tests.map(() => 0), cpu = tests.map(() => 0), errSum = tests.map(() => 0), errMax = tests.map(() => 0);
let calls = 0, convIts = 0;
const sim = createSimulation(parseScene(json), 'particle', { workers: 1 });
const ctx = (sim as unknown as { ctx: StepContext }).ctx;
let frame = 0;

function runAt(tol: number, onB: boolean, maxIter: number, dt: number, vel0: Float64Array, ch0: Float32Array): { v: Float64Array; it: number; ms: number } {
  const L = ctx.liquid, n = L.count;
  L.vel.set(vel0);
  ctx.viscositySolve!.change.array.set(ch0);
  viscosityStop.tolerance = tol; viscosityStop.relativeToB = onB; viscosityStop.maxIterations = maxIter;
  const cnt = ctx.count.bind(ctx);
  let it = 0;
  ctx.count = ((name: string, v = 1) => { if (name === 'viscosityIterations') it += v; return cnt(name, v); }) as typeof ctx.count;
  const t0 = process.cpuUsage();
  applyImplicitViscosity(ctx, dt);
  const c = process.cpuUsage(t0);
  ctx.count = cnt;
  return { v: L.vel.slice(0, 3 * n), it, ms: (c.user + c.system) / 1000 };
}

viscosityStop.probe = (c, dt) => {
  if (frame < first || frame > last || c !== ctx) return;
  viscosityStop.probe = null;
  const L = ctx.liquid, n = L.count;
  // The state is made on the stage's first call: one call's worth first where it has none.
  const st = ctx.viscositySolve;
  if (st) {
    const vel0 = L.vel.slice(0, 3 * n), ch0 = st.change.array.slice(0, 3 * n);
    const conv = runAt(1e-10, false, 2000, dt, vel0, ch0);
    convIts += conv.it;
    let dc = 0;
    for (let k = 0; k < 3 * n; k++) dc += (conv.v[k] - vel0[k]) ** 2;
    tests.forEach((t, q) => {
      const r = runAt(t.tol, t.onB, 100, dt, vel0, ch0);
      let d = 0;
      for (let k = 0; k < 3 * n; k++) d += (r.v[k] - conv.v[k]) ** 2;
      const e = Math.sqrt(d / dc);
      its[q] += r.it; cpu[q] += r.ms; errSum[q] += e; errMax[q] = Math.max(errMax[q], e);
    });
    calls++;
    L.vel.set(vel0);
    st.change.array.set(ch0);
  }
  viscosityStop.tolerance = VISCOSITY_TOLERANCE; viscosityStop.relativeToB = false; viscosityStop.maxIterations = 100;
  viscosityStop.probe = probe;
};
const probe = viscosityStop.probe;
for (frame = 1; frame <= last; frame++) sim.stepFrame();
console.log(`${file}${reach === undefined ? '' : ` kernelReach ${reach}`}, frames ${first}-${last}, ${calls} calls; converged: ${(convIts / calls).toFixed(1)} iterations a solve; load ${loadavg()[0].toFixed(1)}`);
console.log('| stop test | CG a solve | CPU ms a call | |v − v_conv| / |v_conv − v*| mean / largest |');
console.log('|---|---:|---:|---|');
tests.forEach((t, q) => {
  console.log(`| ${t.name} | ${(its[q] / calls).toFixed(2)} | ${(cpu[q] / calls).toFixed(2)} | ${(100 * errSum[q] / calls).toFixed(2)} % / ${(100 * errMax[q]).toFixed(2)} % |`);
});
process.exit(0);
