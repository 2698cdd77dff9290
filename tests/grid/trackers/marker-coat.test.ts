/**
 * The marker tracker's meshed φ on a coat thinner than a cell over a ball (src/grid/trackers/markers.ts
 * surfaceJob): the markers of a coat 1.5 mm thick over a 3 cm ball in 5 mm cells, h/2 apart, lie in
 * cells that straddle the ball's surface; φ is read from the markers in the ball's cells too, so the
 * mesh covers the ball whole (0 % of 600 rays from the ball open). With the ball's cells at +band
 * (as before) the mesh read trilinearly between their centres and the coat's was a net: 31 % of
 * the rays open here, honey-drop-grid's ball from 0.7 s.
 */
import { describe, expect, it } from 'vitest';
import { FLUID } from '../../../src/grid/store.ts';
import { MarkerTracker } from '../../../src/grid/trackers/markers.ts';
import { levelSetAt, type SurfaceJob } from '../../../src/surface/index.ts';
import { gridSim } from '../helpers.ts';

const h = 0.005, R = 0.03;

/** φ at a point as the mesher reads the job (trilinear in its samples). */
function meshed(job: SurfaceJob): (x: number, y: number, z: number) => number {
  if (job.kind !== 'levelset') throw new Error(`expected a level-set job, got ${job.kind}`);
  const input = job.input;
  return (x, y, z) => levelSetAt(input, x, y, z);
}

/** n directions spread over the sphere (a Fibonacci sphere). */
function directions(n: number): number[][] {
  const golden = Math.PI * (3 - Math.sqrt(5));
  return Array.from({ length: n }, (_, i) => {
    const y = 1 - (2 * (i + 0.5)) / n, r = Math.sqrt(1 - y * y);
    return [Math.cos(golden * i) * r, y, Math.sin(golden * i) * r];
  });
}

describe('markers: the meshed coat on a ball', () => {
  it('meshes a coat thinner than a cell over a ball whole', () => {
    const sim = gridSim({
      gravity: [0, 0, 0],
      domain: { min: [-0.05, -0.05, -0.05], max: [0.05, 0.05, 0.05], boundary: 'noslip' },
      materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } }, ball: { kind: 'solid' } },
      bodies: [
        { material: 'ball', shape: { type: 'sphere', center: [0, 0, 0], radius: R } },
        { material: 'honey', shape: { type: 'sphere', center: [0, 0, 0], radius: R + 0.006 } },
      ],
      grid: { cellSize: h, tracking: 'markers' },
    });
    const t = sim.tracker as MarkerTracker;
    // The coat: markers h/2 apart on the sphere 0.75 mm out from the ball, a coat 1.5 mm thick.
    t.markers.filter(() => false);
    const rc = R + 0.00075, dirs = directions(Math.round((4 * Math.PI * rc * rc) / (h / 2) ** 2));
    const material = 0;
    for (const [x, y, z] of dirs) t.markers.add(rc * x, rc * y, rc * z, material, 1);
    sim.updateGrid();
    let liquid = 0;
    for (let c = 0; c < sim.store.count; c++) if (sim.store.type[c] === FLUID) liquid++;
    expect(liquid).toBeGreaterThan(300);
    const f = meshed(sim.tracker.surfaceJob(sim, [1, 1, 1]));
    let open = 0;
    const rays = directions(600);
    for (const [x, y, z] of rays) {
      let hit = false;
      for (let r = R; r <= R + 2 * h && !hit; r += h / 20) hit = f(r * x, r * y, r * z) < 0;
      if (!hit) open++;
    }
    console.log(`coat 1.5 mm thick on a ${R * 100} cm ball in ${h * 1000} mm cells: ${((100 * open) / rays.length).toFixed(1)} % of the rays from the ball meet no liquid in the meshed φ`);
    expect(open / rays.length).toBeLessThan(0.01);
  });
});
