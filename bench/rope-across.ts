/**
 * How thin a spout's stream may land before the particle engine parts it: pours honey from a disk
 * spout onto a floor at several particle radii (so at several widths in particles) and prints, per
 * radius, what src/scene/stream-resolution.ts predicts (particles across where the stream lands)
 * beside what the run does: the frames in which the stream between 1 cm under the spout and 1 cm
 * over the floor is one piece (tests/particle/rope-components.ts, linked within the kernel support
 * 5 r, and within 4 r), counted from the frame after the stream's head reaches the floor, and the
 * stream's measured width 1–2.5 cm over the floor in particles (the slab's particle volume over its
 * height, as a disk):
 *   npx tsx bench/rope-across.ts [--radii 2,3,4] (mm) [--disk 6] (mm) [--speed 0.4] (m/s) [--fall 0.1] (m)
 *     [--viscosity 5] (Pa·s) [--frames 30] [--cohesion S] (honey–honey Lennard-Jones strength;
 *     default: the scene's default adhesion) [--particle '{"viscositySolver":"implicit"}']
 */
import { loadavg } from 'node:os';
import { createSimulation, parseScene } from '../src/index.ts';
import { streamResolutions } from '../src/scene/stream-resolution.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { ropeComponents } from '../tests/particle/rope-components.ts';

const argv = process.argv.slice(2);
const flag = (name: string, d: string): string => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const radii = flag('--radii', '2,3,4').split(',').map((s) => Number(s) / 1000);
const disk = Number(flag('--disk', '6')) / 1000;
const speed = Number(flag('--speed', '0.4'));
const fall = Number(flag('--fall', '0.1'));
const mu = Number(flag('--viscosity', '5'));
const frames = Number(flag('--frames', '30'));
const cohesion = argv.includes('--cohesion') ? Number(flag('--cohesion', '1')) : undefined;
const extra = JSON.parse(flag('--particle', '{}')) as Record<string, unknown>;
console.log(`disk ${disk * 1000} mm, ${speed} m/s, fall ${fall * 100} cm, ${mu} Pa·s, ${frames} frames, cohesion ${cohesion ?? 'the default adhesion'}, particle ${JSON.stringify(extra)}, load ${loadavg()[0].toFixed(1)}`);

for (const r of radii) {
  const half = 0.04;
  const input: SceneInput = {
    fps: 30,
    duration: frames / 30,
    domain: { min: [-half, 0, -half], max: [half, fall + 0.02, half], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: mu, unit: 'Pa.s' } } },
    ...(cohesion === undefined ? {} : { adhesion: [{ between: ['honey', 'honey'], type: 'lennard-jones', strength: cohesion }] }),
    sources: [{ material: 'honey', shape: 'disk', center: [0, fall, 0], direction: [0, -1, 0], radius: disk, speed }],
    particle: { radius: r, ...extra },
  };
  const scene = parseScene(input);
  const [pred] = streamResolutions(scene);
  const sim = createSimulation(scene, 'particle');
  const win = { min: [-half, 0.01, -half] as [number, number, number], max: [half, fall - 0.01, half] as [number, number, number] };
  const counts: number[] = [];
  const tight: number[] = [];
  const widths: number[] = [];
  let landed = false;
  for (let f = 1; f <= frames; f++) {
    sim.stepFrame();
    const p = sim.fluidPoints();
    if (!landed) {
      for (let i = 0; i < p.count; i++) if (p.positions[3 * i + 1] < 0.01) landed = true;
      continue;
    }
    counts.push(ropeComponents(p.positions, p.count, win, 5 * r).components);
    tight.push(ropeComponents(p.positions, p.count, win, 4 * r).components);
    let n = 0;
    for (let i = 0; i < p.count; i++) {
      const y = p.positions[3 * i + 1];
      if (y >= 0.01 && y < 0.025) n++;
    }
    const area = (n * (2 * r) ** 3) / 0.015;
    widths.push((2 * Math.sqrt(area / Math.PI)) / (2 * r));
  }
  const one = counts.filter((c) => c === 1).length;
  const mean = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
  const w = widths.reduce((a, b) => a + b, 0) / Math.max(1, widths.length);
  console.log(
    `r ${(r * 1000).toFixed(2)} mm: predicted ${pred.across.toFixed(2)} across (${pred.speed.toFixed(2)} m/s); measured ${w.toFixed(2)} across 1–2.5 cm over the floor; one piece in ${one}/${counts.length} frames, mean ${mean.toFixed(2)}, max ${Math.max(0, ...counts)}; linked within 4 r: ${tight.filter((c) => c === 1).length}/${tight.length}`,
  );
  sim.dispose();
}
