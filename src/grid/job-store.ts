/**
 * The grid store as a thread team's job sees it: the arrays a grid job reads (STORE_INPUTS) and
 * the numbers that locate its cells (STORE_SCALARS) are bound from the calling thread's GridStore
 * (bindStore), and every thread rebuilds a view of that store from them (StoreView: a GridStore
 * and a GridDomain over the same shared arrays, nothing copied), so that a job's kernel calls the
 * grid's own interpolation and stencil code (interpolate.ts, advect.ts) unchanged. Inline the
 * view's arrays are the store's own.
 */
import type { JobArgs, Kinds } from '../parallel/job.ts';
import type { SlotArray } from '../parallel/memory.ts';
import type { GridDomain } from './domain.ts';
import { GridStore } from './store.ts';

/** The store's arrays every grid job reads (each job adds the ones it writes). */
export const STORE_INPUTS = {
  ci: 'i32', cj: 'i32', ck: 'i32', type: 'u8', layer: 'i32', nb: 'i32', face: 'u8',
  u0: 'f64', u1: 'f64', u2: 'f64', phi: 'f64', dense: 'i32', slot: 'i32', next: 'i32',
} as const;
/** The store's counts, its dense table's box and the domain's cell size and origin. */
export const STORE_SCALARS = ['count', 'hasDense', 'dOff', 'dW', 'dH', 'dD', 'tableSize', 'h', 'ox', 'oy', 'oz'] as const;

type StoreKinds = typeof STORE_INPUTS;
type StoreScalar = (typeof STORE_SCALARS)[number];
/** The arguments of a grid job as the store view reads them. */
type StoreArgs = JobArgs<Kinds, StoreKinds, StoreScalar, Kinds, unknown>;
/** A bound grid job (JobRunner.bind) as bindStore fills it. */
interface StoreBinding {
  readonly a: object;
  readonly s: object;
}

const NO_DENSE = new Int32Array(0);

/** Puts the store's arrays and numbers, and the domain's, into a grid job's arguments. */
export function bindStore(job: StoreBinding, s: GridStore, d: GridDomain): void {
  const a = job.a as Record<string, SlotArray>, x = job.s as Record<string, number>;
  const hash = s.hashParts();
  a.ci = s.ci; a.cj = s.cj; a.ck = s.ck; a.type = s.type; a.layer = s.layer; a.nb = s.nb; a.face = s.face;
  a.u0 = s.u[0]; a.u1 = s.u[1]; a.u2 = s.u[2]; a.phi = s.phi;
  a.dense = s.dense ?? NO_DENSE; a.slot = hash.slot; a.next = hash.next;
  x.count = s.count; x.hasDense = s.dense !== null ? 1 : 0;
  x.dOff = s.dOff; x.dW = s.dW; x.dH = s.dH; x.dD = s.dD; x.tableSize = hash.tableSize;
  x.h = d.h; x.ox = d.origin[0]; x.oy = d.origin[1]; x.oz = d.origin[2];
}

/** One thread's view of the calling thread's store and domain (a job's per-thread scratch). */
export class StoreView {
  readonly store = new GridStore(16);
  readonly domain: GridDomain = { origin: [0, 0, 0], h: 1, n: [1, 1, 1], kind: new Int32Array(6), wallVelocity: new Float64Array(18) };
  /** The face-velocity scratch the view's `tmp` points at where the job does not write it. */
  private readonly none = new Float64Array(0);

  /** Points the view at the arrays of this run (`tmp`: the job's written face arrays, if any). */
  of(x: object, tmp?: [Float64Array, Float64Array, Float64Array]): GridStore {
    const { a, s } = x as unknown as StoreArgs;
    this.store.adopt({
      count: s.count, ci: a.ci, cj: a.cj, ck: a.ck, type: a.type, layer: a.layer, nb: a.nb, face: a.face,
      u: [a.u0, a.u1, a.u2], tmp: tmp ?? [this.none, this.none, this.none], phi: a.phi,
      dense: s.hasDense !== 0 ? a.dense : null, dOff: s.dOff, dW: s.dW, dH: s.dH, dD: s.dD,
      slot: a.slot, next: a.next, tableSize: s.tableSize,
    });
    const d = this.domain;
    d.h = s.h; d.origin[0] = s.ox; d.origin[1] = s.oy; d.origin[2] = s.oz;
    return this.store;
  }
}
