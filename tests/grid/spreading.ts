/**
 * A viscous blob slumping on a no-slip floor against Huppert (1982): a quarter cylinder of liquid
 * in the corner of a box whose walls at x = 0 and z = 0 slip (the planes of symmetry), the floor
 * no-slip, the top open. The footprint radius is read from the fluid points in the bottom cell
 * layer (upper 2 % quantile of their distance from the axis), the mean thickness is V / (π r²).
 */
import { createSimulation, parseScene } from '../../src/index.ts';
import { fitLine } from '../../src/compare/validate.ts';
import { huppertRadius } from '../../src/compare/reference/huppert-1982.ts';

export interface SpreadingOptions {
  h: number;
  r0: number;
  H0: number;
  nu: number;
  seconds: number;
  fps: number;
  tracking: string;
  /** Box width / r0 (default 3). */
  width?: number;
  grid?: Record<string, unknown>;
}

export interface SpreadingResult {
  t: number[];
  r: number[];
  /** Mean thickness V / (π r²), m. */
  H: number[];
  /** Volume / initial volume at each frame. */
  volumeRatio: number[];
  /** Fitted exponent of r ∝ (t − t0)^n over the frames at least two cells thick (t0 ≤ 0 from r⁸ ∝ t − t0). */
  exponent: number;
  /** r / Huppert's r at the last fitted frame, with t measured from the virtual origin. */
  radiusRatio: number;
  tFit: number;
  fitted: number;
  ms: number;
}

export function spreadingRun(o: SpreadingOptions): SpreadingResult {
  const L = (o.width ?? 3) * o.r0;
  const sim = createSimulation(parseScene({
    fps: o.fps, duration: o.seconds,
    domain: { min: [0, 0, 0], max: [L, 1.5 * o.H0, L], boundary: 'slip', faces: { ymin: 'noslip', ymax: 'open' } },
    materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: o.nu, unit: 'm2/s' } } },
    bodies: [{ material: 'liquid', shape: { type: 'cylinder', center: [0, o.H0 / 2, 0], radius: o.r0, height: o.H0 } }],
    grid: { cellSize: o.h, tracking: o.tracking, ...o.grid },
  }), 'grid');
  const V0 = 4 * sim.metrics().fluidVolume;
  const t: number[] = [], r: number[] = [], H: number[] = [], volumeRatio: number[] = [];
  const t0 = performance.now();
  for (let f = 0; f < Math.round(o.seconds * o.fps); f++) {
    sim.stepFrame();
    const p = sim.fluidPoints();
    const d: number[] = [];
    for (let q = 0; q < p.count; q++) if (p.positions[3 * q + 1] < o.h) d.push(Math.hypot(p.positions[3 * q], p.positions[3 * q + 2]));
    d.sort((a, b) => a - b);
    const radius = d.length ? d[Math.min(d.length - 1, Math.floor(0.98 * d.length))] : NaN;
    const V = 4 * sim.metrics().fluidVolume;
    t.push(sim.time);
    r.push(radius);
    H.push(V / (Math.PI * radius * radius));
    volumeRatio.push(V / V0);
  }
  const ms = performance.now() - t0;
  // Frames past the initial slump (r ≥ 1.25 r0) while at least two cells thick.
  const use = t.map((_, i) => r[i] >= 1.25 * o.r0 && H[i] >= 2 * o.h);
  const ft = t.filter((_, i) => use[i]), fr = r.filter((_, i) => use[i]);
  const lin = fitLine(ft, fr.map((x) => x ** 8));
  // The virtual origin of r⁸ = K (t − t0): before the release for a blob that starts with a radius.
  const origin = Math.min(0, -lin.a / lin.b);
  const log = fitLine(ft.map((x) => Math.log(x - origin)), fr.map((x) => Math.log(x)));
  const last = ft.length - 1;
  const radiusRatio = fr[last] / huppertRadius(9.81, V0, o.nu, ft[last] - origin);
  return { t, r, H, volumeRatio, exponent: log.b, radiusRatio, tFit: ft[last], fitted: ft.length, ms };
}
