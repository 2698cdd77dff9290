/**
 * Density correction's velocity (density.ts): the gravity block and the zero-gravity block of
 * tests/particle/motion.test.ts, the particle validation cases (tiny and full), the half-size honey
 * drop of tests/particle/viscosity.test.ts (20 frames) and the full one (14 frames).
 *   npx tsx bench/density-velocity.ts [sets]
 * sets: comma list of block,tiny,full,honey,drop (default block,tiny,honey).
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import { VALIDATION_CASES } from '../src/compare/validate.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import type { SceneInput } from '../src/scene/schema.ts';

const sets = (process.argv[2] ?? 'block,tiny,honey').split(',');
const sim = (input: SceneInput) => createSimulation(parseScene(input), 'particle') as ParticleSimulation;
const liquid = (mu: number) => ({ kind: 'liquid' as const, density: 1000, viscosity: { value: mu, unit: 'Pa.s' as const } });
const out: string[] = [];
const t0 = process.cpuUsage();

if (sets.includes('block')) {
  const r = 0.004;
  for (const grav of [true, false]) {
    const s = sim({
      ...(grav ? { domain: { min: [-0.028, -0.028, -0.028], max: [0.028, 0.028, 0.028] } } : { gravity: [0, 0, 0] }),
      materials: { w: liquid(2) },
      adhesion: [{ between: ['w', 'w'], type: 'lennard-jones', strength: 0 }],
      bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: grav ? [0.056, 0.056, 0.056] : [0.06, 0.06, 0.06] } }],
      particle: { radius: r },
    } as SceneInput);
    const c0 = s.metrics().centerOfMass;
    let passes = 0, sub = 0;
    for (let f = 0; f < (grav ? 10 : 5); f++) {
      const st = s.stepFrame();
      passes += st.counters.densityPasses ?? 0;
      sub += st.counters.substeps;
    }
    const m = s.metrics();
    const drift = Math.max(...[0, 1, 2].map((k) => Math.abs(m.centerOfMass[k] - c0[k]))) / r;
    const v = grav ? m.maxSpeed / Math.sqrt(9.81 * 0.056) : m.maxSpeed;
    out.push(`${grav ? 'gblock' : 'block0'}: err ${(100 * m.densityError!).toFixed(2)}% passes ${(passes / sub).toFixed(2)} drift ${drift.toFixed(3)}r vmax ${v.toFixed(3)}${grav ? '√gd' : 'm/s'}`);
  }
}
for (const size of ['tiny', 'full'] as const) {
  if (!sets.includes(size)) continue;
  for (const name of ['hydrostatic', 'spreading', 'dam-break']) {
    const c = VALIDATION_CASES.find((k) => k.name === name)!;
    const res = c.run('particle', size);
    out.push(`${size} ${name}: ` + res.checks.map((k) => `${k.name.split(' ')[0]}${k.name.includes('speed') ? 'V' : ''} ${k.value.toFixed(3)}${k.passed ? "" : "!"}`).join(' '));
  }
}
for (const variant of ['honey', 'drop']) {
  if (!sets.includes(variant)) continue;
  const input = JSON.parse(readFileSync('scenes/honey-drop.json', 'utf8'));
  if (variant === 'honey') for (const b of input.bodies) if (b.material === 'honey') b.shape.radius *= 0.5;
  const s = sim(input);
  const frames = variant === 'honey' ? 20 : 14;
  let passes = 0, sub = 0, vmax = 0;
  for (let f = 0; f < frames; f++) {
    const st = s.stepFrame();
    if (f >= frames - 8) { passes += st.counters.densityPasses ?? 0; sub += st.counters.substeps; }
    vmax = Math.max(vmax, s.metrics().maxSpeed);
  }
  const p = s.fluidPoints();
  let above = 0, floor = 0, far = 0;
  for (let i = 0; i < p.count; i++) {
    const x = p.positions[3 * i], y = p.positions[3 * i + 1], z = p.positions[3 * i + 2];
    if (y > -0.02) above++;
    if (y < -0.1) floor++;
    // Further than 2.5 cm from the ball's surface: spray.
    if (Math.hypot(x, y, z) > 0.075) far++;
  }
  out.push(`${variant}: n ${p.count} above ${(above / p.count).toFixed(3)} floor ${floor} far ${far} passes ${(passes / sub).toFixed(2)} peakV ${vmax.toFixed(2)} err ${(100 * s.metrics().densityError!).toFixed(2)}%`);
}
const cpu = process.cpuUsage(t0);
out.push(`cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
console.log(out.join('\n  '));
