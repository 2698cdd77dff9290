/**
 * honey-coil's pour in the particle engine, frame by frame: particle count, sub-timesteps, CG
 * iterations of the implicit viscosity, CPU time, and the rope's lower end as the rope-coiling case
 * reads it (src/compare/validate/rope-coiling.ts, measureCoilFrame); at the end the fit from `from`.
 *   npx tsx bench/particle-coil.ts SECONDS FPS FROM '{"radius":0.0006,...}' [OUT.json] [--friction F] [--spout-y Y]
 * The JSON is merged over the case's particle settings (rope-coiling-particle.ts); empty layers up to
 * two particle spacings are passed over, as the case does. OUT.json, when given,
 * gets the frames' particle positions every 0.1 s (for looking at the rope). --friction sets the
 * plate's friction (0.6 in the case; the implicit viscosity's no-slip on the plate is μ times it);
 * --spout-y the spout's height, m (the domain's top 1.5 cm above it).
 */
import { writeFileSync } from 'node:fs';
import '../src/index.ts';
import { getEngine } from '../src/engines.ts';
import { parseScene } from '../src/scene/parse.ts';
import { HONEY_COIL, fitCoiling, honeyCoilScene, measureCoilFrame, type CoilFrame } from '../src/compare/validate/rope-coiling.ts';
import { PARTICLE_ROPE_GAP } from '../src/compare/validate/rope-coiling-particle.ts';

const argv = process.argv.slice(2);
const flag = (name: string): number | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv.splice(i, 2)[1]) : undefined;
};
const friction = flag('--friction'), spoutY = flag('--spout-y') ?? HONEY_COIL.spoutY;
const [seconds = '1', fps = '60', from = '0.5', json = '{}', out] = argv;
const scene = honeyCoilScene(Number(seconds), Number(fps));
if (friction !== undefined) scene.materials!.plate = { kind: 'solid', friction };
scene.sources![0].center = [0, spoutY, 0];
scene.domain = { ...scene.domain!, max: [0.05, spoutY + 0.015, 0.05] };
scene.particle = { ...scene.particle, ...JSON.parse(json) };
const gap = 2 * 2 * (scene.particle?.radius ?? PARTICLE_ROPE_GAP / 4);
const sim = getEngine('particle').create(parseScene(scene), {});
const frames: CoilFrame[] = [];
const dumps: { t: number; pos: number[] }[] = [];
const total = Math.round(Number(seconds) * Number(fps));
for (let f = 0; f < total; f++) {
  const c0 = process.cpuUsage();
  const st = sim.stepFrame();
  const cpu = process.cpuUsage(c0).user / 1e6;
  const pts = sim.fluidPoints();
  const fr = measureCoilFrame(sim.time, pts, sim.metrics().fluidVolume / Math.max(pts.count, 1), spoutY, HONEY_COIL.spoutRadius, gap);
  frames.push(fr);
  const c = st.counters, sub = c.substeps ?? 0;
  console.log(
    `t ${sim.time.toFixed(3)} n ${pts.count} sub ${sub} cg ${((c.viscosityIterations ?? 0) / Math.max(1, sub)).toFixed(1)} cap ${c.viscosityIterationCap ?? 0}`
    + ` cpu ${cpu.toFixed(2)} s | end y ${(1000 * fr.yTop).toFixed(1)} mm off ${(1000 * fr.offset).toFixed(2)} mm ang ${fr.angle.toFixed(2)} a1 ${(1000 * fr.a1).toFixed(2)} u1 ${fr.u1.toFixed(3)}`,
  );
  if (out && (f + 1) % Math.max(1, Math.round(Number(fps) / 10)) === 0) dumps.push({ t: sim.time, pos: Array.from(pts.positions, (x) => Math.round(x * 1e5) / 1e5) });
}
const m = fitCoiling(frames, Number(from), spoutY, HONEY_COIL.viscosityPas / HONEY_COIL.density);
console.log(`from ${from} s: ${m.turns.toFixed(2)} turns, Ω ${m.omega.toFixed(2)} rad/s, R² ${m.r2.toFixed(3)}; a1 ${(1000 * m.a1).toFixed(2)} mm U1 ${m.u1.toFixed(3)} H ${(100 * m.fallHeight).toFixed(2)} cm → V ${m.scales.viscous.toFixed(1)} G ${m.scales.gravitational.toFixed(1)} I ${m.scales.inertial.toFixed(1)} (${m.scales.regime})`);
if (out) writeFileSync(out, JSON.stringify(dumps));
sim.dispose();
