/**
 * The level set's display points (trackers/levelset.ts reseedMarkers: a sub-lattice of perAxis³
 * points in each liquid or near-surface cell, kept where φ interpolated there is negative) on the
 * grid's thread team, as two phased jobs over chunks of cells: the first samples every cell's
 * points into a bit mask (point q of the sub-lattice: bit q) and counts each chunk's points; the
 * calling thread adds up the counts and makes room; the second writes each chunk's points from the
 * count of the chunks before it, in cell order and, within a cell, in q order: the serial loop's
 * list, bit for bit, on any number of threads. The masks need perAxis³ ≤ 31 (perAxis ≤ 3).
 */
import type { JobArgs } from '../parallel/job.ts';
import { allocFloat64, allocInt32, allocUint16, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import type { GridDomain } from './domain.ts';
import { sampleCentre as sampleCentre_ } from './interpolate.ts';
import { bindStore, STORE_INPUTS, STORE_SCALARS, StoreView } from './job-store.ts';
import type { Markers } from './markers.ts';
import { definePhasedJob, gridWork } from './phases.ts';
import { FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const FLUID = FLUID_, SOLID = SOLID_, sampleCentre = sampleCentre_;

/** Cells a chunk covers. */
const CHUNK = 1024;

type MaskX = JobArgs<{ mask: 'i32'; counts: 'i32' }, typeof STORE_INPUTS, (typeof STORE_SCALARS)[number] | 'perAxis' | 'band', Record<never, never>, StoreView>;
type FillX = JobArgs<
  { pos: 'f64'; material: 'u16'; weight: 'f64' }, { mask: 'i32'; counts: 'i32'; ci: 'i32'; cj: 'i32'; ck: 'i32' },
  'count' | 'perAxis' | 'h' | 'ox' | 'oy' | 'oz' | 'liquid', Record<never, never>, undefined
>;

/** The points of cells [from, to) of chunks as bit masks, and each chunk's count. */
function maskChunks(x: MaskX, from: number, to: number): void {
  const v = x.scratch, s = v.store, d = v.domain, h = d.h, m = x.s.perAxis, band = x.s.band;
  const { mask, counts } = x.a;
  const { type, phi, ci, cj, ck } = s;
  const n = x.s.count, m3 = m * m * m;
  for (let ch = from; ch < to; ch++) {
    let total = 0;
    for (let c = ch * CHUNK, end = Math.min(n, c + CHUNK); c < end; c++) {
      let bits = 0;
      if ((type[c] === FLUID || phi[c] < h) && type[c] !== SOLID) {
        // Sub-points lie within half a cell diagonal of the centre: deep cells need no sampling.
        const deep = phi[c] < -0.87 * h;
        for (let q = 0; q < m3; q++) {
          if (deep) { bits |= 1 << q; continue; }
          const px = d.origin[0] + h * (ci[c] + ((q % m) + 0.5) / m);
          const py = d.origin[1] + h * (cj[c] + ((Math.floor(q / m) % m) + 0.5) / m);
          const pz = d.origin[2] + h * (ck[c] + (Math.floor(q / (m * m)) + 0.5) / m);
          if (sampleCentre(s, d, phi, px, py, pz, band) < 0) bits |= 1 << q;
        }
      }
      mask[c] = bits;
      for (let b = bits; b !== 0; b &= b - 1) total++;
    }
    counts[ch] = total;
  }
}

/** The points of chunks [from, to), each from the count of the chunks before it. */
function fillChunks(x: FillX, from: number, to: number): void {
  const { pos, material, weight, mask, counts, ci, cj, ck } = x.a;
  const n = x.s.count, m = x.s.perAxis, h = x.s.h, ox = x.s.ox, oy = x.s.oy, oz = x.s.oz, liquid = x.s.liquid, m3 = m * m * m;
  for (let ch = from; ch < to; ch++) {
    let p = 0;
    for (let k = 0; k < ch; k++) p += counts[k];
    for (let c = ch * CHUNK, end = Math.min(n, c + CHUNK); c < end; c++) {
      const bits = mask[c];
      if (bits === 0) continue;
      for (let q = 0; q < m3; q++) {
        if ((bits & (1 << q)) === 0) continue;
        pos[3 * p] = ox + h * (ci[c] + ((q % m) + 0.5) / m);
        pos[3 * p + 1] = oy + h * (cj[c] + ((Math.floor(q / m) % m) + 0.5) / m);
        pos[3 * p + 2] = oz + h * (ck[c] + (Math.floor(q / (m * m)) + 0.5) / m);
        material[p] = liquid;
        weight[p] = 1;
        p++;
      }
    }
  }
}

export const markerMaskJob = definePhasedJob({
  name: 'grid-marker-masks',
  arrays: { mask: 'i32', counts: 'i32' },
  inputs: STORE_INPUTS,
  scalars: [...STORE_SCALARS, 'perAxis', 'band'],
  minItems: () => gridWork.minCells,
  scratch: () => new StoreView(),
  prepare(x) {
    x.scratch.of(x);
  },
  phases: [{ items: (x: MaskX) => Math.ceil(x.s.count / CHUNK), run: maskChunks }],
});

export const markerFillJob = definePhasedJob({
  name: 'grid-marker-fill',
  arrays: { pos: 'f64', material: 'u16', weight: 'f64' },
  inputs: { mask: 'i32', counts: 'i32', ci: 'i32', cj: 'i32', ck: 'i32' },
  scalars: ['count', 'perAxis', 'h', 'ox', 'oy', 'oz', 'liquid'],
  minItems: () => gridWork.minCells,
  phases: [{ items: (x: FillX) => Math.ceil(x.s.count / CHUNK), run: fillChunks }],
});

/** The jobs' own arrays: the masks and the chunks' counts. */
export class MarkerTeamArrays {
  mask = new Int32Array(0);
  counts = new Int32Array(0);
}

/**
 * reseedMarkers on the store's runner (see the header): replaces `markers`' points. False (nothing
 * done) where the runner would run on one thread or perAxis³ passes 31; the caller's loop then.
 */
export function reseedOnTeam(s: GridStore, d: GridDomain, markers: Markers, own: MarkerTeamArrays, perAxis: number, band: number, liquid: number): boolean {
  const runner = s.runner;
  if (runner === null || perAxis > 3) return false;
  const job = runner.bind(markerMaskJob);
  if (!gridWork.teamPathOnOneThread && job.threads(s.count) < 2) return false;
  const n = s.count, shared = s.shared, chunks = Math.ceil(n / CHUNK);
  if (own.mask.length < n || isShared(own.mask) !== shared) own.mask = allocInt32(s.capacity, shared);
  if (own.counts.length < chunks || isShared(own.counts) !== shared) own.counts = allocInt32(Math.ceil(chunks * 1.3) + 4, shared);
  bindStore(job, s, d);
  job.a.mask = own.mask; job.a.counts = own.counts;
  job.s.perAxis = perAxis; job.s.band = band;
  runJob(job, n);
  let total = 0;
  for (let ch = 0; ch < chunks; ch++) total += own.counts[ch];
  if (markers.material.length < total || isShared(markers.pos) !== shared) {
    const cap = Math.max(1024, Math.ceil(total * 1.3));
    markers.pos = allocFloat64(3 * cap, shared);
    markers.material = allocUint16(cap, shared);
    markers.weight = allocFloat64(cap, shared);
  }
  const fill = runner.bind(markerFillJob), a = fill.a, x = fill.s;
  a.pos = markers.pos; a.material = markers.material; a.weight = markers.weight;
  a.mask = own.mask; a.counts = own.counts; a.ci = s.ci; a.cj = s.cj; a.ck = s.ck;
  x.count = n; x.perAxis = perAxis; x.h = d.h; x.ox = d.origin[0]; x.oy = d.origin[1]; x.oz = d.origin[2]; x.liquid = liquid;
  runJob(fill, n);
  markers.count = total;
  return true;
}
