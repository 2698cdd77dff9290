/**
 * Rope coiling on the grid: runs the rope-coiling validation's pour (src/compare/validate/rope-coiling.ts)
 * with settings changed from the command line and prints, each frame, the lower end's angle, its
 * offset from the axis, the stack's top, the rope's a₁ and U₁ and the frame's CPU time; at the end,
 * the fit from `--from` and the regime scales. Used to find what makes the rope turn steadily
 * (docs/decisions.md, "Rope coiling on the grid: steady turning").
 *
 *   npx tsx bench/rope-coil-variants.ts --seconds 2 --fps 60 --from 0.8 [--set key=value …] [--points DIR --every N]
 *
 * Keys of --set: cellSize, spoutRadius, speed, spoutY, viscosityPas, halfWidth (the box and plate, m),
 * plateTop, tolerance, cfl, maxDt, tilt (the spout's direction tilted this many degrees towards +x+z),
 * seed (the scene's random seed: the particle level set's particles), dx and dz (the spout's centre
 * moved off the axis, m; the plate stays centred).
 * --points DIR writes the liquid's points every N frames as DIR/frame-NNNN.json (x, y, z rounded to 0.1 mm).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import '../src/index.ts';
import { HONEY_COIL, fitCoiling, honeyCoilScene, measureCoilFrame } from '../src/compare/validate/rope-coiling.ts';
import { simulate } from '../src/compare/validate/case.ts';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const sets: Record<string, number> = {};
args.forEach((a, i) => {
  if (a !== '--set') return;
  const [k, v] = args[i + 1].split('=');
  sets[k] = Number(v);
});
const seconds = Number(opt('seconds', '1')), fps = Number(opt('fps', '60')), from = Number(opt('from', '0.5'));
const pointsDir = opt('points', ''), every = Number(opt('every', '10'));

const p = { ...HONEY_COIL, halfWidth: 0.05, tilt: 0, dx: 0, dz: 0, ...sets };
const scene = honeyCoilScene(seconds, fps);
const w = p.halfWidth;
scene.domain = { ...scene.domain!, min: [-w, 0, -w], max: [w, p.spoutY + 0.015, w] };
scene.bodies = [{ name: 'plate', material: 'plate', shape: { type: 'box', center: [0, p.plateTop / 2, 0], size: [2 * w - 0.01, p.plateTop, 2 * w - 0.01] } }];
const tilt = (p.tilt * Math.PI) / 180;
scene.sources = [{
  name: 'spout', material: 'honey', shape: 'disk', center: [p.dx, p.spoutY, p.dz],
  direction: [Math.sin(tilt) / Math.SQRT2, -Math.cos(tilt), Math.sin(tilt) / Math.SQRT2],
  radius: p.spoutRadius, speed: p.speed, start: 0, end: p.pourEnd,
}];
scene.materials = { ...scene.materials, honey: { kind: 'liquid', density: p.density, viscosity: { value: p.viscosityPas, unit: 'Pa.s' } } };
scene.grid = { cellSize: p.cellSize, ...(sets.tolerance ? { tolerance: sets.tolerance } : {}), ...(sets.cfl ? { cfl: sets.cfl } : {}), ...(sets.maxDt ? { maxDt: sets.maxDt } : {}) };
if (sets.seed !== undefined) scene.seed = sets.seed;
console.log(JSON.stringify({ sets, seconds, fps, from }));

const sim = simulate('grid', scene);
if (pointsDir) mkdirSync(pointsDir, { recursive: true });
const frames = [];
const total = Math.round(seconds * fps);
for (let f = 0; f < total; f++) {
  const c0 = process.cpuUsage();
  sim.stepFrame();
  const cpu = process.cpuUsage(c0);
  const pts = sim.fluidPoints();
  const m = measureCoilFrame(sim.time, pts, sim.metrics().fluidVolume / Math.max(pts.count, 1), p.spoutY, p.spoutRadius, 0, p.dx, p.dz);
  frames.push(m);
  const r = (x: number, k = 1) => (Number.isFinite(x) ? x.toFixed(k) : '-');
  console.log(`f ${f + 1} t ${sim.time.toFixed(3)} ang ${r(m.angle, 2)} off ${r(1000 * m.offset)} top ${r(1000 * m.yTop)} a1 ${r(1000 * m.a1, 2)} u1 ${r(m.u1, 3)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms vol ${(sim.metrics().fluidVolume * 1e6).toFixed(2)} cm3`);
  if (pointsDir && (f + 1) % every === 0) {
    const out: number[] = [];
    for (let i = 0; i < pts.count; i++) for (let a = 0; a < 3; a++) out.push(Math.round(pts.positions[3 * i + a] * 1e4) / 1e4);
    writeFileSync(`${pointsDir}/frame-${String(f + 1).padStart(4, '0')}.json`, JSON.stringify(out));
  }
}
const m = fitCoiling(frames, from, p.spoutY, p.viscosityPas / p.density);
console.log(`fit from ${from} s: turns ${m.turns.toFixed(2)} omega ${m.omega.toFixed(2)} r2 ${m.r2.toFixed(3)} a1 ${(1000 * m.a1).toFixed(2)} mm u1 ${m.u1.toFixed(3)} H ${(100 * m.fallHeight).toFixed(2)} cm → V ${m.scales.viscous.toFixed(1)} G ${m.scales.gravitational.toFixed(1)} I ${m.scales.inertial.toFixed(1)} ${m.scales.regime}`);
sim.dispose();
