/**
 * A liquid body's start within closed domain walls (issue 26, "Rest at any size"): the lattice it
 * is sampled on, fitted to the walls, how close to each wall the walls' clamp then lets the liquid
 * come, and the closest spacing it starts at.
 *
 * Each particle stands for the cube of side 2r around it (Steele et al. 2004 §3.1: the initial
 * lattice of spacing 2r defines ρ0). A body is sampled on that lattice; where it spans the domain
 * from wall to wall on an axis that is not a whole number of cells, its N cells there are spread
 * to meet both walls, or N + 1 drawn together (bodyAxes: whichever keeps the lattice nearer
 * cubic), and a free axis (a pool's height) is scaled by the inverse product, so that each particle
 * still holds (2r)³ (fitBodyToWalls). Every row next to a wall then sits half its spacing s from
 * it, where its mirror image across the wall (density-walls.ts, pressure-ghosts.ts) is the next row
 * of the lattice continued: the stretched lattice reads ρ0 to 0.03 % in the cubic spline's sums (a
 * 10 cm square at 4 mm, 12 columns for 12.5, rows 0.92 · 2r). The walls' clamp (boundaries.ts
 * domainWalls) kept every particle r from a wall, which lifted a row s/2 < r from its wall onto the
 * next (ρ/ρ0 1.022 there after the first move), and no layered lattice with its wall row at r and
 * stretched columns reads ρ0 on every row (solving for the rows' heights gives rows paired 1.70 r
 * and 2.0 r apart, whose kernel gradients do not cancel): a water pool whose footprint was off the
 * lattice rearranged for seconds and bounced. So the clamp keeps the liquid s/2 from a face a
 * body's lattice is drawn towards, r elsewhere (narrowClearance, StepContext.wallClearance), and
 * the pressure filter's Courant number is taken over the closest spacing a body starts at
 * (closestSpacing, StepContext.restSpacing). A body whose box fits the lattice, or that stays clear
 * of the walls, keeps its lattice, r on every face and 2r: its start and its run are unchanged
 * (docs/decisions.md, "Pools off the lattice"). A pool drawn together keeps its level (addTopRows), and a
 * pool's fitted lattice that a shear lowers the density of (latticeGivesWay: 5 cm at 4 mm, 6.25 cells,
 * has none that holds) is settled before frame 0 (start-settle.ts; docs/decisions.md "A start that
 * does not give way").
 */
import type { Vec3 } from '../scene/schema.ts';
import { cubicSpline } from '../math/kernels.ts';

export type Box = { min: ArrayLike<number>; max: ArrayLike<number> };

/**
 * Origin of the 2r lattice a liquid body is sampled on: cell centres aligned to the body, centred in
 * its bounds with N = round(extent / 2r) cells per axis (at least 1). A box from 0 to L = 2rN gets
 * x = r + 2r·i, N particles per axis and its full volume (a lattice at origin 0 gave N − 1 and lost
 * up to half a small body); a body smaller than one cell gets its centre. Within closed walls
 * (`domain`) see bodyAxes.
 */
export function bodyLattice(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain?: Box): Vec3 {
  const axes = bodyAxes(min, max, r, domain);
  const o: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) o[a] = axes[a].mid - (axes[a].cells - 1) * r;
  return o;
}

interface Axis { mid: number; lo: number; hi: number; cells: number; stretch: number }

/**
 * One axis of a body's lattice: N cells and the stretch that spreads them (fitBodyToWalls), and
 * where the body spans the domain from wall to wall on this axis without a whole number of cells,
 * the other choice (`up`: N + 1 cells drawn together). Each particle stands for the cube of side 2r
 * around it (Steele et al. 2004 §3.1: the initial lattice of spacing 2r defines ρ0), so within
 * closed domain walls the bounds are first clipped to the domain and, where N rounded up would put
 * the outer cubes through a wall, or where the body spans the domain and N cells do not fill it,
 * N = floor(extent / 2r) and `stretch` > 1 spreads those N over the extent. A pool filling its box
 * 30 cm wide at r = 4 mm (37.5 cells) had 38 columns, the outer ones 2 mm from the walls, where
 * the walls' mirror images (density-walls.ts) read them over-dense: the first pressure solve threw
 * the rim up the walls (docs/decisions.md, "A still water pool at 4 mm"); one 5 cm wide (6.25
 * cells) had 6 columns 1 mm off each wall, which the liquid then fell into.
 */
function bodyAxis(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined, a: number): { fit: Axis; up: Axis | null } {
  const lo = domain ? Math.max(min[a], domain.min[a]) : min[a];
  const hi = domain ? Math.min(max[a], domain.max[a]) : max[a];
  const mid = 0.5 * (lo + hi), slack = 1e-9 * r;
  let cells = Math.max(1, Math.round((hi - lo) / (2 * r)));
  const spans = domain !== undefined && lo <= domain.min[a] + slack && hi >= domain.max[a] - slack;
  // A whole number of cells to a thousandth of one: a radius given to a few digits (honey-melt's
  // 3.3333 mm, 6.00006 cells across its 4 cm) keeps its lattice.
  const exact = Math.abs(hi - lo - 2 * r * cells) <= 2e-3 * r;
  if (!domain || exact || (!spans && mid - cells * r >= domain.min[a] - slack && mid + cells * r <= domain.max[a] + slack)) return { fit: { mid, lo, hi, cells, stretch: 1 }, up: null };
  cells = Math.max(1, Math.floor((hi - lo) / (2 * r) + 1e-9));
  const fit = { mid, lo, hi, cells, stretch: Math.min(MAX_STRETCH, (hi - lo) / (2 * r * cells)) };
  return { fit, up: spans ? { mid, lo, hi, cells: cells + 1, stretch: (hi - lo) / (2 * r * (cells + 1)) } : null };
}

/** The most a body's lattice is spread to meet the walls (a 2.5-cell layer gets 2 cells, 1.25×). */
const MAX_STRETCH = 1.25;

/**
 * The three axes of a body's lattice. Where the body spans the domain on some axes without a whole
 * number of cells and another axis is free to take the inverse (a pool's height), the spanning axes
 * all take N cells (spread) or all N + 1 (drawn together), whichever keeps the lattice nearer
 * cubic: the least largest |log f| over the three axes' factors f (the free axes' scale included).
 * A 10 cm square pool at 4 mm (12.5 cells) gets 13 by 13 columns and rows 1.08 · 2r apart, where
 * 12 by 12 drew its rows together to 0.92 · 2r and 20 cm of water bounced; 13 by 12, rows
 * 0.998 · 2r, rested less well than 13 by 13 in 20 cm (docs/decisions.md "Pools off the
 * lattice"). A 5 cm one (6.25 cells) keeps 6 by 6 (7 by 7 would draw the columns to 0.89 · 2r).
 */
function bodyAxes(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): Axis[] {
  const opts = [0, 1, 2].map((a) => bodyAxis(min, max, r, domain, a));
  const chosen = opts.map((o) => o.fit);
  if (!opts.some((o) => o.fit.stretch === 1)) return chosen; // no free axis: all stretch, N each
  let best = Infinity, pick = chosen;
  for (const up of [false, true]) {
    if (up && !opts.some((o) => o.up !== null)) break;
    const axes = opts.map((o) => (up && o.up !== null ? o.up : o.fit));
    let product = 1, free = 0;
    for (const ax of axes) { product *= ax.stretch; if (ax.stretch === 1) free++; }
    const squeeze = Math.pow(product, -1 / free);
    let cost = Math.abs(Math.log(squeeze));
    for (const ax of axes) cost = Math.max(cost, Math.abs(Math.log(ax.stretch)));
    if (cost < best - 1e-12) { best = cost; pick = axes; }
  }
  return pick;
}

/**
 * Spreads (or draws together) a body's particles on each axis bodyAxes stretches (about the body's
 * centre), so that a body filling the space between closed walls meets them instead of leaving a
 * gap the liquid falls into, and scales the other axes by the inverse of their product, so that
 * each particle still holds the volume (2r)³ that ρ0 stands for: the body starts at rest density, a
 * pool at its level for the particles it holds (12 cm asked, 30 cm wide, 37 columns for 37.5:
 * 11.7 cm). A free axis is scaled towards a domain wall the body touches there (the floor), its row
 * next to the wall first brought to r from it (a 5 cm deep body's 6 rows stood 1 mm off the
 * floor), so that it ends half the scaled spacing from the wall, where its mirror image continues
 * the lattice; else about its centre. Where a free axis is spread (N + 1 columns drawn together),
 * the rows it carries beyond the body's bounds are dropped, so that the pool keeps its level. When
 * all three stretch the body starts at most 1/N under-dense and settles.
 */
export function fitBodyToWalls(pos: Float64Array, min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): Float64Array {
  const fit = bodyFit(min, max, r, domain);
  if (fit === null) return pos;
  for (let a = 0; a < 3; a++) {
    const f = fit.factor[a], about = fit.about[a], shift = fit.shift[a];
    for (let i = a; i < pos.length; i += 3) pos[i] = about + (pos[i] + shift - about) * f;
  }
  const f = poolAxis(fit, min, max, r, domain);
  if (f >= 0 && fit.factor[f] < 1 && fit.squeezedTo[f] < 0) pos = addTopRows(pos, f, 2 * r * fit.factor[f], Math.round((fit.hi[f] - fit.lo[f]) / (2 * r * fit.factor[f])));
  if (!fit.trim.some((t) => t)) return pos;
  const slack = 1e-9 * r, kept: number[] = [];
  for (let i = 0; i < pos.length; i += 3) {
    let inside = true;
    for (let a = 0; a < 3; a++) if (fit.trim[a] && (pos[i + a] < fit.lo[a] - slack || pos[i + a] > fit.hi[a] + slack)) inside = false;
    if (inside) kept.push(pos[i], pos[i + 1], pos[i + 2]);
  }
  return Float64Array.from(kept);
}

/**
 * The free axis of a pool: the one axis bodyFit scales towards a domain wall, where the body spans
 * the domain from wall to wall on the other two; −1 for any other body.
 */
function poolAxis(fit: NonNullable<ReturnType<typeof bodyFit>>, min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): number {
  if (!domain) return -1;
  const free = [0, 1, 2].filter((a) => fit.squeezedTo[a] !== 0);
  if (free.length !== 1) return -1;
  const slack = 1e-9 * r;
  for (let a = 0; a < 3; a++) {
    if (a !== free[0] && !(min[a] <= domain.min[a] + slack && max[a] >= domain.max[a] - slack)) return -1;
  }
  return free[0];
}

/**
 * A pool whose rows are drawn together (N columns spread) keeps its level: rows of the top row's
 * columns are added `spacing` apart above it until the pool has `rows` (round(depth / spacing)),
 * where the N rows sampled at 2r, drawn together, stood 1 − f lower (5 × 12 cm at 4 mm: 15 rows of
 * 7.37 mm, 11.06 cm, 0.922 of the box's volume; now 16, 11.80 cm, 0.983).
 */
function addTopRows(pos: Float64Array, axis: number, spacing: number, rows: number): Float64Array {
  let top = -Infinity, bottom = Infinity;
  for (let i = axis; i < pos.length; i += 3) { top = Math.max(top, pos[i]); bottom = Math.min(bottom, pos[i]); }
  const have = Math.round((top - bottom) / spacing) + 1, extra = rows - have;
  if (!(extra > 0)) return pos;
  const row: number[] = [];
  for (let i = 0; i < pos.length; i += 3) if (Math.abs(pos[i + axis] - top) < 1e-6 * spacing) row.push(i);
  const out = new Float64Array(pos.length + 3 * row.length * extra);
  out.set(pos);
  let n = pos.length;
  for (let k = 1; k <= extra; k++) {
    for (const i of row) {
      out[n] = pos[i]; out[n + 1] = pos[i + 1]; out[n + 2] = pos[i + 2];
      out[n + axis] = top + k * spacing;
      n += 3;
    }
  }
  return out;
}

/**
 * The factor fitBodyToWalls scales each axis by, the point about which, and the shift before;
 * squeezedTo[a]: −1 (the lower face) or +1 (the upper) where free axis a is scaled towards a
 * domain wall, else 0; trim[a] where a free axis is spread, between lo and hi. Null where the
 * lattice fits.
 */
function bodyFit(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): { factor: number[]; about: number[]; shift: number[]; squeezedTo: number[]; trim: boolean[]; lo: number[]; hi: number[] } | null {
  const axes = bodyAxes(min, max, r, domain);
  let product = 1, free = 0;
  for (const ax of axes) { product *= ax.stretch; if (ax.stretch === 1) free++; }
  if (product === 1) return null;
  const squeeze = free > 0 ? Math.pow(product, -1 / free) : 1;
  const factor = [1, 1, 1], about = [0, 0, 0], shift = [0, 0, 0], squeezedTo = [0, 0, 0], trim = [false, false, false];
  for (let a = 0; a < 3; a++) {
    const { mid, cells, stretch } = axes[a];
    factor[a] = stretch;
    about[a] = mid;
    if (stretch !== 1) continue;
    factor[a] = squeeze;
    trim[a] = squeeze > 1;
    // The lattice's outer rows on this axis (bodyLattice), r from the wall once shifted.
    const first = mid - (cells - 1) * r, last = mid + (cells - 1) * r;
    if (domain && min[a] <= domain.min[a] + r) {
      about[a] = domain.min[a]; squeezedTo[a] = -1; shift[a] = Math.min(0, domain.min[a] + r - first);
    } else if (domain && max[a] >= domain.max[a] - r) {
      about[a] = domain.max[a]; squeezedTo[a] = 1; shift[a] = Math.max(0, domain.max[a] - r - last);
    }
  }
  return { factor, about, shift, squeezedTo, trim, lo: axes.map((x) => x.lo), hi: axes.map((x) => x.hi) };
}

/**
 * How close the walls' clamp lets the liquid come to each face of the domain (xmin, xmax, ymin,
 * ymax, zmin, zmax, as FACES), m: `clearance` starts at r on every face; on a closed face a liquid
 * body (bounds min, max) is squeezed towards, it becomes half the body's squeezed spacing if that
 * is less, where the body's wall row starts and its mirror image continues the lattice (see the
 * header). Emitters calls it for every liquid body of the scene, so that every run of a scene,
 * from its start or from a checkpoint, gets the same.
 */
export function narrowClearance(clearance: Float64Array, min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): void {
  const fit = bodyFit(min, max, r, domain);
  if (fit === null || !domain) return;
  for (let a = 0; a < 3; a++) {
    const f = fit.factor[a];
    if (f >= 1) continue;
    // Squeezed towards a wall: that face. Squeezed about its centre: a face only where it meets it.
    const lower = fit.squeezedTo[a] < 0 || (fit.squeezedTo[a] === 0 && min[a] <= domain.min[a] + r);
    const upper = fit.squeezedTo[a] > 0 || (fit.squeezedTo[a] === 0 && max[a] >= domain.max[a] - r);
    if (lower) clearance[2 * a] = Math.min(clearance[2 * a], r * f);
    if (upper) clearance[2 * a + 1] = Math.min(clearance[2 * a + 1], r * f);
  }
}

/**
 * The closest spacing of a body's lattice once fitted (fitBodyToWalls), m: 2r times the least of
 * its axes' factors, or 2r where none is under 1.
 */
export function closestSpacing(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): number {
  const fit = bodyFit(min, max, r, domain);
  return 2 * r * (fit === null ? 1 : Math.min(1, ...fit.factor));
}

/**
 * The wall a pool stands on (fitBodyToWalls squeezes its one free axis towards it, the other two
 * spanning the domain): that axis and side (−1 the lower face, +1 the upper), or null for any other
 * body. pool-level.ts measures and sets the settled pool's level from it.
 */
export function poolFloor(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): { axis: number; side: number } | null {
  const fit = bodyFit(min, max, r, domain);
  if (fit === null) return domain ? latticePool(min, max, r, domain) : null;
  const axis = poolAxis(fit, min, max, r, domain);
  return axis < 0 ? null : { axis, side: fit.squeezedTo[axis] };
}

/** Whether a body's lattice fits its box as sampled (no axis stretched to meet the walls: bodyFit). */
export function latticeFits(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined): boolean {
  return bodyFit(min, max, r, domain) === null;
}

/**
 * The wall a box on the lattice stands on (no axis stretched: its footprint a whole number of cells
 * on both axes across): spanning the domain on two axes, within r of a wall on the third without
 * spanning it. Its rows are centred in the box (bodyLattice), so where the depth is not a whole
 * number of cells they start off the floor (5 cm at 4 mm: 6 rows 1 mm above it, which dropped in
 * the first frames, 0.045 √(g h)) and the pool stands off the depth asked (48 or 56 mm for 50).
 */
function latticePool(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box): { axis: number; side: number } | null {
  const slack = 1e-9 * r;
  const spans = [0, 1, 2].map((a) => min[a] <= domain.min[a] + slack && max[a] >= domain.max[a] - slack);
  if (spans.filter((x) => x).length !== 2) return null;
  const a = spans.indexOf(false);
  if (min[a] <= domain.min[a] + r) return { axis: a, side: -1 };
  if (max[a] >= domain.max[a] - r) return { axis: a, side: 1 };
  return null;
}

/**
 * Whether a pool's fitted lattice gives way under its own weight: the body fills the domain from wall
 * to wall on the axes its lattice is stretched along (its columns) and stands on a wall along the one
 * free axis (its rows), and a shear of that lattice, of any axis's lines along any other axis, lowers
 * the kernel sum Σ w(d/h) a particle reads (the cubic spline the pressure and PBF measure;
 * densityShearDrop). Such a shear leaves the density unchanged to first order, so
 * the pressure does not resist it; where it lowers the sum, the same particles read ρ0 in less
 * volume and the weight of the liquid above drives the lattice into it: the 5 × 20 cm water pool's
 * columns (6 by 6, spread 1.0417×, rows 0.92 · 2r) slid against each other from 1 s and threw a
 * frame of 0.017 √(g h) at 2.8 s (docs/decisions.md, "The feed where PBF is left with compression").
 * A lattice whose sum rises under every such shear holds (the cubic lattice; 38 by 38 columns drawn to
 * 0.987 for a 30 cm pool). One that a shear of columns along each other across (the two axes across,
 * not the rows) lowers gives way too, later: a 10 × 12 cm water pool on 13 by 13 columns drawn to
 * 0.96, rows 1.08 · 2r, (its sum 8.4e-5 lower under that shear) held for 6 s and gave way from 6.5 s,
 * a frame of 0.0056 √(g h) at 7.4 s (docs/decisions.md "A still pool rests past 4 s"). A pool whose width lies between whole numbers of cells at 4 mm below
 * about 12 cells has no lattice that holds (6.25 cells: 6 columns spread or 7 drawn to 0.89, rows
 * 1.25 · 2r, whose sum drops 8e-4 under a shift of a tenth of a column), and is settled before
 * frame 0 instead (start-settle.ts).
 */
export function latticeGivesWay(min: ArrayLike<number>, max: ArrayLike<number>, r: number, domain: Box | undefined, h: number): boolean {
  const fit = bodyFit(min, max, r, domain);
  if (fit === null) return false;
  const free = poolAxis(fit, min, max, r, domain);
  return free >= 0 && densityShearDrop(fit.factor.map((f) => 2 * r * f), h) > 0;
}

/**
 * The most Σ w(d/h) over an orthorhombic lattice of spacings `s` falls, as a fraction of the
 * unsheared sum, under a shear of a tenth of a spacing that moves one axis's lines along another
 * (every pair of axes: uniform, line i shifted by i/10 of its spacing; alternating, every other line
 * by 1/10); ≤ 0 where every such shear raises it.
 */
export function densityShearDrop(s: readonly number[], h: number): number {
  const base = shearedSum(s, h, -1, -1, 0, false);
  let drop = -Infinity;
  for (let moved = 0; moved < 3; moved++) {
    for (let along = 0; along < 3; along++) {
      if (along === moved) continue;
      for (const alternate of [false, true]) drop = Math.max(drop, 1 - shearedSum(s, h, moved, along, SHEAR, alternate) / base);
    }
  }
  return drop;
}

/** The shear densityShearDrop tries, in spacings. */
const SHEAR = 0.1;

/** Σ cubicSpline(d/h) from one site over the lattice with axis `moved` shifted by `eps` spacings per line of axis `along` (or every other line). */
function shearedSum(s: readonly number[], h: number, moved: number, along: number, eps: number, alternate: boolean): number {
  const m = Math.ceil(h / Math.min(s[0], s[1], s[2])) + 2, x = [0, 0, 0], idx = [0, 0, 0];
  let sum = 0;
  for (idx[0] = -m; idx[0] <= m; idx[0]++) {
    for (idx[1] = -m; idx[1] <= m; idx[1]++) {
      for (idx[2] = -m; idx[2] <= m; idx[2]++) {
        for (let a = 0; a < 3; a++) x[a] = idx[a] * s[a];
        if (moved >= 0) {
          const line = idx[along];
          x[moved] += eps * (alternate ? s[moved] * (((line % 2) + 2) % 2) : s[along] * line);
        }
        sum += cubicSpline(Math.hypot(x[0], x[1], x[2]) / h);
      }
    }
  }
  return sum;
}
