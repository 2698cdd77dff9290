/**
 * How many level-set particles each cell of the band is kept at (the particle level set's seeding
 * and reseeding, particle-levelset.ts). Enright et al. (2002, §3.1) seed every cell of the band
 * alike; their particles act only where the level set alone loses the surface, at features the
 * grid under-resolves: thin sheets and films, corners, tight curvature (their §1 and §3.3). There
 * φ's second differences are of the order of h (the kink of the signed distance at a film's middle
 * or a corner's bisector; about κh across a curved surface), where they are near zero beside a
 * smooth surface. A cell is "rough" where an axis' second difference |φ(c−e) − 2φ(c) + φ(c+e)|
 * exceeds `threshold`·h (0.2: a sphere under five cells in radius), or where it touches a solid
 * that holds the liquid (a film on an object: the solid side has no φ to difference). Rough cells
 * and those within `spread` cells of one keep the full count, the others `sparse`. What this saves
 * and costs in accuracy: BENCHMARKS.md, issue 17.
 */
import { OPEN, SLIP } from '../domain.ts';
import { SOLID as SOLID_, type GridStore } from '../store.ts';
// Imported bindings are getters under tsx's module transform (see levelset.ts).
const SOLID = SOLID_;

export class SeedQuota {
  quota = new Uint8Array(0);
  private next = new Uint8Array(0);

  /** Fills `quota` for the store's cells: `full` at and near rough cells, `sparse` elsewhere. */
  compute(s: GridStore, kind: Int32Array, h: number, bandMax: number, full: number, sparse: number, threshold = 0.2, spread = 1): Uint8Array {
    const n = s.count;
    if (this.quota.length < n) { this.quota = new Uint8Array(Math.ceil(n * 1.3)); this.next = new Uint8Array(this.quota.length); }
    let q = this.quota, t = this.next;
    const { nb, phi, type } = s, lim = threshold * h, reach = bandMax + (spread + 1) * h;
    for (let c = 0; c < n; c++) {
      q[c] = 0;
      if (type[c] === SOLID || Math.abs(phi[c]) > reach) continue;
      const f = phi[c];
      for (let a = 0; a < 3 && q[c] === 0; a++) {
        const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
        if (holds(s, kind, lo) || holds(s, kind, hi)) { q[c] = 1; break; }
        if (lo < 0 || hi < 0 || type[lo] === SOLID || type[hi] === SOLID) continue;
        if (Math.abs(phi[lo] - 2 * f + phi[hi]) > lim) q[c] = 1;
      }
    }
    for (let it = 0; it < spread; it++) {
      for (let c = 0; c < n; c++) {
        let r = q[c];
        for (let e = 0; e < 6 && r === 0; e++) { const m = nb[6 * c + e]; if (m >= 0) r = q[m]; }
        t[c] = r;
      }
      const w = q; q = t; t = w;
    }
    for (let c = 0; c < n; c++) q[c] = q[c] !== 0 ? full : sparse;
    this.quota = q; this.next = t;
    return q;
  }
}

/** Whether cell m is a solid that holds the liquid still (an object, or a wall that is neither slip nor open). */
export function holds(s: GridStore, kind: Int32Array, m: number): boolean {
  if (m < 0 || s.type[m] !== SOLID) return false;
  const w = s.wall[m];
  return w === 0 || w === 7 || (kind[w - 1] !== SLIP && kind[w - 1] !== OPEN);
}
