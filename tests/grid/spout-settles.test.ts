/**
 * spout-fill with a shorter pour (issue 27): syrup poured at 1 m/s through a 2 cm disk into the
 * 20 × 24 × 20 cm box for 0.5 s, then the spout stops. Once the splash has fallen back (0.9 s
 * later), no liquid stands in the air. With the particle level set's former uniform volume shift a
 * piece stayed under the lid at 23.5 cm from 1.2 s on (docs/decisions.md);
 * through the divergence (volume-growth.ts) nothing stands above 8 cm from 1.33 s on, and with
 * MacCormack first-order on the surface layer (advect.ts) the pool is flat by 1.4 s (2.5 cm).
 * About a minute and a half of CPU: runs with VISCID_LONG=1.
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import type { GridStore } from '../../src/grid/store.ts';

/** The highest liquid cell centre (m), and the highest one not joined through liquid cells to the floor's layer (0 if none). */
function liquidHeights(s: GridStore, h: number): { top: number; loose: number } {
  const liquid = (c: number) => c >= 0 && s.type[c] !== 2 && s.wall[c] === 0 && s.phi[c] < 0;
  const seen = new Uint8Array(s.count), stack: number[] = [];
  let top = 0;
  for (let c = 0; c < s.count; c++) {
    if (!liquid(c)) continue;
    top = Math.max(top, (s.cj[c] + 0.5) * h);
    if (s.cj[c] === 0) { seen[c] = 1; stack.push(c); }
  }
  while (stack.length > 0) {
    const c = stack.pop()!;
    for (let q = 0; q < 6; q++) {
      const m = s.nb[6 * c + q];
      if (!seen[m] && liquid(m)) { seen[m] = 1; stack.push(m); }
    }
  }
  let loose = 0;
  for (let c = 0; c < s.count; c++) if (liquid(c) && !seen[c]) loose = Math.max(loose, (s.cj[c] + 0.5) * h);
  return { top, loose };
}

describeLong(import.meta, 'a spout into a box settles (VISCID_LONG=1)', () => {
  it('leaves no liquid in the air 0.9 s after the spout stops', () => {
    const sim = createSimulation(parseScene({
      fps: 30,
      duration: 1.5,
      domain: { min: [0, 0, 0], max: [0.2, 0.24, 0.2], boundary: 'noslip' },
      materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 0.05, unit: 'Pa.s' } } },
      sources: [{ material: 'syrup', shape: 'disk', center: [0.1, 0.2, 0.1], direction: [0, -1, 0], radius: 0.02, speed: 1, start: 0, end: 0.5 }],
      grid: { cellSize: 0.01 },
    }), 'grid') as GridEngineSimulation;
    const g = sim.sim;
    expect(g.tracker.name).toBe('particle-levelset');
    let top = 0, loose = 0;
    for (let f = 1; f <= 45; f++) {
      sim.stepFrame();
      if (f < 42) continue;
      const r = liquidHeights(g.store, g.d.h);
      top = Math.max(top, r.top);
      loose = Math.max(loose, r.loose);
    }
    const m = sim.metrics();
    console.log(`spout into a box, 1.4–1.5 s: highest liquid centre ${(100 * top).toFixed(1)} cm, highest not joined to the floor ${(100 * loose).toFixed(1)} cm; volume ${(1e6 * m.fluidVolume).toFixed(0)} of ${(1e6 * m.volumeExpected!).toFixed(0)} cm³`);
    // 630 cm³ over 400 cm² is a 1.6 cm pool; the last drops of the splash are still falling.
    // Measured: 2.5 cm and none (5.5 and 4.5 cm with MacCormack's correction on the surface
    // layer; with the uniform shift, 23.5 cm both: a piece under the lid).
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(0.08);
    expect(loose).toBeLessThan(0.07);
    expect(Math.abs(m.volumeChange!)).toBeLessThan(0.05);
  }, 600_000);
});
