/**
 * Extra per-cell fields of the grid extensions (viscoelastic strain, smoke density, …) that must
 * survive the grid rebuild of step 2. The core store carries only u, φ, p and temperature across a
 * rebuild; a CellFields remembers which store its arrays are indexed by and, when the store has been
 * replaced, copies every value to the new slot of the same (i, j, k) cell (new cells get `fill`).
 */
import type { GridStore } from './store.ts';

export class CellFields {
  /** The store whose slots index `data`. */
  store: GridStore | null = null;
  data: Float64Array[];
  private spare: Float64Array[];

  constructor(readonly components: number, readonly fill = 0) {
    this.data = Array.from({ length: components }, () => new Float64Array(0));
    this.spare = Array.from({ length: components }, () => new Float64Array(0));
  }

  /** Re-indexes the fields onto `s` if it is not the store they belong to. */
  sync(s: GridStore): void {
    if (this.store === s) return;
    const old = this.store, n = s.count;
    for (let q = 0; q < this.components; q++) {
      if (this.spare[q].length < n) this.spare[q] = new Float64Array(Math.ceil(n * 1.3));
      const dst = this.spare[q], src = this.data[q];
      for (let c = 0; c < n; c++) {
        const o = old ? old.find(s.ci[c], s.cj[c], s.ck[c]) : -1;
        dst[c] = o >= 0 && o < src.length ? src[o] : this.fill;
      }
      this.spare[q] = this.data[q];
      this.data[q] = dst;
    }
    this.store = s;
  }
}

/**
 * Extrapolates `field` from cells with valid[c] = 1 outwards, layer by layer (each new cell takes the
 * mean of its valid neighbours, as Figure 7 does for velocity); cells never reached get 0.
 * `valid` is overwritten (1 = has a value).
 */
export function extrapolateMasked(s: GridStore, field: Float64Array, valid: Uint8Array, layers: number): void {
  const n = s.count, nb = s.nb;
  for (let l = 1; l <= layers; l++) {
    const mark = l + 1; // cells reached in this layer, so they do not feed the same layer
    for (let c = 0; c < n; c++) {
      if (valid[c] !== 0) continue;
      let sum = 0, cnt = 0;
      for (let e = 0; e < 6; e++) {
        const m = nb[6 * c + e];
        if (m >= 0 && valid[m] !== 0 && valid[m] !== mark) { sum += field[m]; cnt++; }
      }
      if (cnt === 0) continue;
      field[c] = sum / cnt;
      valid[c] = mark;
    }
  }
  for (let c = 0; c < n; c++) if (valid[c] === 0) field[c] = 0;
}
