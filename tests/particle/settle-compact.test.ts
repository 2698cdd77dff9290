/**
 * The settle's bilateral density passes (src/particle/settle-compact.ts; issue 26, "Rest at any
 * size"): a disordered packing held under ρ0, as the engine's compression-only solves leave a
 * settled pool (the 5 × 20 cm water pool's bulk 6.3 % under), is brought to ρ0 in the bulk, its
 * free surface left open, no pair closer than the liquid contacts' distance, the walls kept.
 */
import { describe, expect, it } from 'vitest';
import { compactBulk } from '../../src/particle/settle-compact.ts';
import { latticeCubicSum } from '../../src/math/kernels.ts';

const R = 0.004, H = 4 * R, N0 = latticeCubicSum(2 * R, H);

/** A 5 × 5 cm footprint, 6 cm of a lattice spread to 1.04 · 2r and jittered by 0.2 · 2r (a fixed sequence). */
function packing(): { pos: Float64Array; n: number } {
  const s = 1.04 * 2 * R, nx = Math.floor(0.05 / s), ny = Math.floor(0.06 / s);
  const pos = new Float64Array(3 * nx * nx * ny);
  let seed = 12345, n = 0;
  const next = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296 - 0.5);
  for (let i = 0; i < nx; i++) for (let j = 0; j < ny; j++) for (let k = 0; k < nx; k++) {
    pos[3 * n] = Math.min(0.05 - R, Math.max(R, s * (i + 0.5) + 0.4 * R * next()));
    pos[3 * n + 1] = Math.max(R, s * (j + 0.5) + 0.4 * R * next());
    pos[3 * n + 2] = Math.min(0.05 - R, Math.max(R, s * (k + 0.5) + 0.4 * R * next()));
    n++;
  }
  return { pos, n };
}

describe('settle-compact: the bulk of a disordered packing brought to ρ0', () => {
  it('the bulk from under ρ0 to within 0.05 % on the mean, no pair under 0.8 · 2r, inside the walls', () => {
    const { pos, n } = packing();
    const box = { min: [0, 0, 0], max: [0.05, 0.12, 0.05], clearance: [R, R, R, R, R, R] };
    const c = compactBulk(pos, n, box, R, H, N0, 400, 2e-4);
    expect(c.before).toBeLessThan(-0.03);
    expect(Math.abs(c.after)).toBeLessThan(5e-4);
    expect(c.spread).toBeLessThan(1e-3);
    let closest = Infinity, top = 0;
    for (let a = 0; a < n; a++) {
      top = Math.max(top, pos[3 * a + 1]);
      for (let k = 0; k < 3; k++) {
        expect(pos[3 * a + k]).toBeGreaterThanOrEqual(box.min[k] + R - 1e-12);
        expect(pos[3 * a + k]).toBeLessThanOrEqual(box.max[k] - R + 1e-12);
      }
      for (let b = a + 1; b < n; b++) closest = Math.min(closest, Math.hypot(pos[3 * a] - pos[3 * b], pos[3 * a + 1] - pos[3 * b + 1], pos[3 * a + 2] - pos[3 * b + 2]));
    }
    expect(closest).toBeGreaterThan(0.8 * 2 * R);
    // The free surface is not pulled up or shut: the packing stands lower than it started (6 cm).
    expect(top).toBeLessThan(0.06);
  });
});
