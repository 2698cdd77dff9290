/**
 * How round and whole a film spreading on a floor is in the grid engine, read from the tracker's
 * signed distance in the first row of cell centres above the floor (where the surface mesh finds
 * the film too: below the first centres φ is extended flat into the floor):
 *
 *  - the rim r(θ), the farthest point from the axis where φ < 0, in 72 directions;
 *  - its relative spread (std / mean) and its azimuthal harmonics relative to the mean: axis-aligned
 *    spokes put their weight in the 4th (spokes along the axes or along the diagonals) and the 8th;
 *    a footprint drawn out along one line (a rope folding to and fro in one plane) in the 2nd, whose
 *    direction `fold` (degrees from +x towards +z, 0–180) says whether that line follows an axis;
 *  - `axisRatio`, the mean rim along the four axes over the mean rim along the four diagonals (1 for
 *    a round film, above 1 for spokes along the axes);
 *  - `coverage`, the fraction of the disc within 0.8 of the smallest rim radius where φ < 0 (1 for a
 *    whole film, less for a lace with holes).
 */
import type { GridSimulation } from '../../src/grid/step.ts';

export const FILM_BINS = 72;

export interface FilmShape {
  /** Mean rim radius, m. */
  rim: number;
  spread: number;
  harmonic2: number;
  /** Direction of the 2nd harmonic's long axis, degrees from +x towards +z in [0, 180). */
  fold: number;
  harmonic4: number;
  harmonic8: number;
  harmonic3: number;
  harmonic5: number;
  /**
   * The share of the rim's length (the polygon through r(θ) in the FILM_BINS directions) whose
   * direction lies within AXIS_DEGREES of an axis: at most 1/9 for a circle (4–8 of the 72 chords),
   * near 1 for a footprint whose edges run along the axes (a stepped polygon).
   */
  axisShare: number;
  axisRatio: number;
  coverage: number;
}

/** The tolerance of `axisShare`, degrees. */
export const AXIS_DEGREES = 5;

/** FilmShape.axisShare of a rim r(θ) in FILM_BINS equal directions. */
export function rimAxisShare(r: Float64Array): number {
  let along = 0, all = 0;
  for (let b = 0; b < FILM_BINS; b++) {
    const t0 = (2 * Math.PI * (b + 0.5)) / FILM_BINS, t1 = (2 * Math.PI * (b + 1.5)) / FILM_BINS, r1 = r[(b + 1) % FILM_BINS];
    const dx = r1 * Math.cos(t1) - r[b] * Math.cos(t0), dz = r1 * Math.sin(t1) - r[b] * Math.sin(t0);
    const len = Math.hypot(dx, dz);
    if (!(len > 0)) continue;
    const deg = ((Math.atan2(dz, dx) * 180) / Math.PI + 360) % 90;
    all += len;
    if (Math.min(deg, 90 - deg) < AXIS_DEGREES) along += len;
  }
  return all > 0 ? along / all : 0;
}

function harmonic(r: Float64Array, m: number, mean: number): number {
  let re = 0, im = 0;
  for (let b = 0; b < FILM_BINS; b++) {
    const t = (2 * Math.PI * (b + 0.5)) / FILM_BINS;
    re += r[b] * Math.cos(m * t);
    im += r[b] * Math.sin(m * t);
  }
  return (2 * Math.hypot(re, im)) / FILM_BINS / mean;
}

/** The direction (degrees in [0, 180)) where the rim's 2nd harmonic peaks. */
function foldDirection(r: Float64Array): number {
  let re = 0, im = 0;
  for (let b = 0; b < FILM_BINS; b++) {
    const t = (2 * Math.PI * (b + 0.5)) / FILM_BINS;
    re += r[b] * Math.cos(2 * t);
    im += r[b] * Math.sin(2 * t);
  }
  const deg = (Math.atan2(im, re) * 90) / Math.PI;
  return deg < 0 ? deg + 180 : deg;
}

/**
 * A rim r(θ) in FILM_BINS equal directions summed up: its mean (m), its relative spread (std /
 * mean), its 2nd, 3rd, 4th, 5th and 8th azimuthal harmonics relative to the mean (their sizes do not
 * depend on where the first bin starts) and the direction of the 2nd.
 */
export function rimFigures(r: Float64Array): Pick<FilmShape, 'rim' | 'spread' | 'harmonic2' | 'fold' | 'harmonic3' | 'harmonic4' | 'harmonic5' | 'harmonic8' | 'axisShare'> {
  let mean = 0;
  for (let b = 0; b < FILM_BINS; b++) mean += r[b] / FILM_BINS;
  let varr = 0;
  for (let b = 0; b < FILM_BINS; b++) varr += (r[b] - mean) ** 2 / FILM_BINS;
  const m = Math.max(mean, 1e-12);
  return {
    rim: mean,
    spread: Math.sqrt(varr) / m,
    harmonic2: harmonic(r, 2, m),
    fold: foldDirection(r),
    harmonic4: harmonic(r, 4, m),
    harmonic8: harmonic(r, 8, m),
    harmonic3: harmonic(r, 3, m),
    harmonic5: harmonic(r, 5, m),
    axisShare: rimAxisShare(r),
  };
}

/**
 * The film's shape about the vertical axis through (ax, az), on the floor at height `floor` (m),
 * out to `reach` m from the axis.
 */
export function filmShape(sim: GridSimulation, floor: number, reach: number, ax = 0, az = 0): FilmShape {
  const h = sim.d.h, y = floor + 0.5 * h, step = 0.25 * h;
  const wet = (x: number, z: number) => sim.tracker.signedDistance(sim, x, y, z) < 0;
  const r = new Float64Array(FILM_BINS);
  for (let b = 0; b < FILM_BINS; b++) {
    const t = (2 * Math.PI * (b + 0.5)) / FILM_BINS, cx = Math.cos(t), sz = Math.sin(t);
    for (let d = reach; d >= 0; d -= step) {
      if (wet(ax + d * cx, az + d * sz)) { r[b] = d; break; }
    }
  }
  let lo = Infinity;
  for (let b = 0; b < FILM_BINS; b++) lo = Math.min(lo, r[b]);
  // Bins centred on the axes and the diagonals (72 bins: 5° each; the axes lie on bin edges, so
  // the two bins either side of each are averaged).
  const at = (deg: number) => { const b = Math.round((deg / 360) * FILM_BINS); return 0.5 * (r[(b + FILM_BINS - 1) % FILM_BINS] + r[b % FILM_BINS]); };
  let axes = 0, diagonals = 0;
  for (let q = 0; q < 4; q++) { axes += at(90 * q) / 4; diagonals += at(90 * q + 45) / 4; }
  // Coverage on a polar lattice of about one sample per quarter cell.
  const inner = 0.8 * lo;
  let inside = 0, all = 0;
  for (let d = 0.5 * step; d < inner; d += step) {
    const n = Math.max(8, Math.ceil((2 * Math.PI * d) / step));
    for (let q = 0; q < n; q++) {
      const t = (2 * Math.PI * (q + 0.5)) / n;
      all++;
      if (wet(ax + d * Math.cos(t), az + d * Math.sin(t))) inside++;
    }
  }
  return {
    ...rimFigures(r),
    axisRatio: diagonals > 0 ? axes / diagonals : Infinity,
    coverage: all > 0 ? inside / all : 0,
  };
}

/** One line of figures for a log. */
export function describeFilm(f: FilmShape): string {
  const pct = (v: number) => (100 * v).toFixed(1);
  return `rim ${(1000 * f.rim).toFixed(1)} mm, spread ${pct(f.spread)} %, harmonics 2: ${pct(f.harmonic2)} % at ${f.fold.toFixed(0)}° 4: ${pct(f.harmonic4)} % 8: ${pct(f.harmonic8)} % (3: ${pct(f.harmonic3)} %, 5: ${pct(f.harmonic5)} %), axes/diagonals ${f.axisRatio.toFixed(3)}, along the axes ${pct(f.axisShare)} % of the rim, coverage ${pct(f.coverage)} %`;
}

/** The film's footprint (φ < 0 in the first row of centres above the floor) as text, one character a cell. */
export function filmMap(sim: GridSimulation, floor: number, reach: number): string {
  const h = sim.d.h, y = floor + 0.5 * h, n = Math.floor(reach / h);
  const rows: string[] = [];
  for (let k = -n; k < n; k++) {
    let row = '';
    for (let i = -n; i < n; i++) {
      const f = sim.tracker.signedDistance(sim, (i + 0.5) * h, y, (k + 0.5) * h);
      row += f < -0.5 * h ? '#' : f < 0 ? '+' : f < 0.5 * h ? '.' : ' ';
    }
    rows.push(row);
  }
  return rows.join('\n');
}

/**
 * A small honey-coil: a spout of radius `r0` at height `drop` pours honey (ν 7e-3 m²/s) at `speed`
 * onto the no-slip floor of a box ±L wide, cells h, open at the top. The film it spreads into is a
 * few cells thick at the pile and thinner than a cell at its rim.
 */
export function pourScene(o: { h?: number; r0?: number; drop?: number; speed?: number; nu?: number; L?: number; fps?: number; seconds?: number; grid?: Record<string, unknown> } = {}): Record<string, unknown> {
  const h = o.h ?? 0.0025, r0 = o.r0 ?? 0.004, drop = o.drop ?? 0.05, L = o.L ?? 0.035, fps = o.fps ?? 30;
  return {
    fps, duration: o.seconds ?? 0.6,
    domain: { min: [-L, 0, -L], max: [L, drop + 4 * h, L], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: o.nu ?? 0.007, unit: 'm2/s' }, grid: { viscosityModel: 'implicit' } } },
    sources: [{ material: 'honey', shape: 'disk', center: [0, drop, 0], direction: [0, -1, 0], radius: r0, speed: o.speed ?? 0.3 }],
    grid: { cellSize: h, ...o.grid },
  };
}
