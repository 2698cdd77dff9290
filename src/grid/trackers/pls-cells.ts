/**
 * Where the particle level set's particles sit relative to the grid's cells and solids: the cell
 * holding a particle, and whether a particle's correction of φ is skipped beside a solid that holds
 * the liquid (Enright et al. 2002 §5's correction, limited as docs/decisions.md "Films" says).
 */
import { SOLID as SOLID_, type GridStore } from '../store.ts';
import { holds as holds_ } from './pls-quota.ts';
// Imported bindings are getters under tsx's module transform: copied to constants for hot loops.
const SOLID = SOLID_, holds = holds_;

/**
 * Whether a particle at cell coordinates (x, y, z) (cell (i, j, k) spans [i, i + 1)) lies between
 * its cell's centre and a solid that holds the liquid still (an object, or a no-slip or moving
 * wall; slip walls mirror the velocity and do not count). There the particles move with the
 * velocity interpolated down to the solid's, while φ moves with the velocity at the cell centres:
 * the liquid's front along a no-slip floor runs over the air particles below the first centres,
 * which would then carve it away. Such particles keep their place but do not correct φ.
 */
export function besideSolid(s: GridStore, kind: Int32Array, g: Float64Array): boolean {
  const x = g[0], y = g[1], z = g[2];
  const i = Math.floor(x), j = Math.floor(y), k = Math.floor(z);
  const c = cellAt(s, g);
  if (c < 0 || s.type[c] === SOLID) return true;
  const nb = s.nb;
  return holds(s, kind, nb[6 * c + (x - i < 0.5 ? 0 : 1)]) || holds(s, kind, nb[6 * c + (y - j < 0.5 ? 2 : 3)]) || holds(s, kind, nb[6 * c + (z - k < 0.5 ? 4 : 5)]);
}

/**
 * Whether a particle's cell, or the next one along an axis, borders a solid that holds the liquid:
 * the air particles there do not correct φ. A film spreading over a solid is soon thinner than the
 * cells, where φ at the centres cannot hold it and the particles about it escape; each air
 * particle's correction punched a hole at the centres nearest it, and the film became a lace of
 * holes and radial fingers (a pour onto a floor, tests/grid/film.test.ts: the rim's spread 11 %,
 * 4 % without them; docs/decisions.md, "Films"). The liquid particles there still correct: without
 * theirs the film lost its sub-cell front and a viscous current spread 37 % too fast for its
 * viscosity (`viscid validate -c spreading`, −22 % with them).
 */
export function nearSolid(s: GridStore, kind: Int32Array, g: Float64Array): boolean {
  const c = cellAt(s, g);
  if (c < 0 || s.type[c] === SOLID) return true;
  const nb = s.nb;
  for (let d = 0; d < 6; d++) {
    const m = nb[6 * c + d];
    if (holds(s, kind, m) || (m >= 0 && holds(s, kind, nb[6 * m + d]))) return true;
  }
  return false;
}

/**
 * The slot of the cell holding the point at cell coordinates (g[0], g[1], g[2]) (cell i spans
 * [i, i + 1)), −1 where there is none. Coordinates come in an array and go to `find` as int32: a
 * double argument is boxed on the heap.
 */
export function cellAt(s: GridStore, g: Float64Array): number {
  const i = Math.floor(g[0]), j = Math.floor(g[1]), k = Math.floor(g[2]);
  if (!(Math.abs(i) < 1e9 && Math.abs(j) < 1e9 && Math.abs(k) < 1e9)) return -1;
  return s.find(i | 0, j | 0, k | 0);
}

/**
 * The particle level set's minimum thickness: a cell flagged in `sheet` (it holds an escaped liquid
 * particle) that lies in or beside the crease of φ at a sheet's or filament's middle keeps
 * φ ≤ `floor` (< 0) at its centre. The crease: the positive second differences of φ along the
 * axes at a centre, summed, exceed h/2 (cells h wide); that is h or more where the middle of a sheet
 * thinner than a cell passes between a centre and an axis neighbour, and zero beside a thick body's
 * flat surface. The face neighbours count too: a slanted sheet's middle clips some cells at a corner,
 * far enough from their centres that no axis neighbour lies across it, and without those cells the
 * kept layer had pinholes where cells meet at an edge. A sheet thinner than a cell then stays a
 * face-connected layer of liquid cells while its particles are there; without it the spheres
 * (r ≤ h/2) reached a centre only where the sheet passed near one, and the honey drop's skirt tore
 * into strips along the grid's rows (docs/decisions.md, "Sheets thinner than a cell"). Overwrites
 * `sheet` with the cells kept.
 */
export function keepSheets(s: GridStore, sheet: Uint8Array, floor: number, h: number): void {
  const { phi, type } = s, n = s.count;
  for (let c = 0; c < n; c++) {
    if (sheet[c] === 0) continue;
    sheet[c] = 0;
    const f = phi[c];
    if (!(f > floor) || type[c] === SOLID) continue;
    if (inSheet(s, c, h)) sheet[c] = 1;
  }
  for (let c = 0; c < n; c++) if (sheet[c] !== 0) phi[c] = floor;
}

/** Whether cell c (not solid) lies in or beside the crease of φ at a sheet's or filament's middle (keepSheets' test). */
export function inSheet(s: GridStore, c: number, h: number): boolean {
  const { nb, type } = s;
  if (crease(s, c) > 0.5 * h) return true;
  for (let e = 0; e < 6; e++) { const m = nb[6 * c + e]; if (m >= 0 && type[m] !== SOLID && crease(s, m) > 0.5 * h) return true; }
  return false;
}

/** The positive second differences of φ along the axes at cell c, summed (m). */
function crease(s: GridStore, c: number): number {
  const { nb, phi, type } = s, f = phi[c];
  let sum = 0;
  for (let a = 0; a < 3; a++) {
    const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
    if (lo < 0 || hi < 0 || type[lo] === SOLID || type[hi] === SOLID) continue;
    const d2 = phi[lo] - 2 * f + phi[hi];
    if (d2 > 0) sum += d2;
  }
  return sum;
}
