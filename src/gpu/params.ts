/**
 * The step's parameters block (wgsl.ts Params) as simulation.ts fills it: what stays for the run
 * (writeConstants, written once at seeding), what the objects' header holds (writeObjectHeader),
 * and what changes every sub-timestep (writeStepParams, through the block's views made once:
 * ParamBlock). Plain writes into the block's ArrayBuffer; simulation.ts uploads it.
 */
import type { Scene } from '../scene/scene.ts';
import { FACES } from '../scene/schema.ts';
import type { StepContext } from '../particle/context.ts';
import { COLD_TOLERANCE, PRESSURE_TOLERANCE } from '../particle/pressure.ts';
import { latticeCubicSum } from '../math/kernels.ts';
import { CLAMP_PARAMS, OBJECT_PARAMS, PARAM_BYTES, PRESENT_PARAMS } from './wgsl.ts';
import { presentShares } from './pressure-wgsl.ts';
import { type GpuObjects, writeObjectAdhesion } from './objects.ts';
import type { LiquidFilter } from './pressure-courant.ts';
import { feedShares } from './pbf-feed.ts';

/** Face friction of "noslip" faces per 1/30 s (boundaries.ts FACE_FRICTION). */
const FACE_FRICTION = 0.5;

/** The parameters block's bytes and its two views, made once: the host writes it a sub-timestep. */
export class ParamBlock {
  readonly data = new ArrayBuffer(PARAM_BYTES);
  readonly f = new Float32Array(this.data);
  readonly u = new Uint32Array(this.data);
}

/** What writeConstants reads besides the scene. */
export interface StepConstants {
  /** Particle radius r, m. */
  r: number;
  /** Density support h, kernel support of the exchange, hash cell edge, m. */
  h: number;
  hv: number;
  cell: number;
  /** Liquid particles now, the hash table's buckets, slots the liquid may fill. */
  count: number;
  table: number;
  capacity: number;
  /**
   * Each face's clearance in FACES order (StepContext.wallClearance: r, or half the spacing of a
   * start drawn towards the face: start-packing.ts) and the liquid's closest rest spacing
   * (StepContext.restSpacing), m.
   */
  clearance: ArrayLike<number>;
  restSpacing: number;
  /** Cohesion's share (adhesion-tables.ts cohesionShare: e = clamp((1 − ρ̂) scale − offset, 0, 1); scale 0: every pair in full). */
  cohesion: { scale: number; offset: number };
}

/** The parameters that stay for the run (the rest change a sub-timestep: writeStepParams). */
export function writeConstants(data: ArrayBuffer, s: Scene, c: StepConstants): void {
  const P = s.particle, f = new Float32Array(data), u = new Uint32Array(data), h = c.h;
  const n0 = latticeCubicSum(2 * c.r, h);
  u[0] = c.count; u[1] = c.table; f[2] = 1 / c.cell; f[3] = h;
  f[4] = 1 / n0; f[5] = (1e-4 / (h * h)) * n0 * n0; f[6] = c.hv;
  f[10] = c.r;
  let tol = Infinity;
  for (const name of s.materialNames) {
    const mat = s.materials[name];
    if (mat.kind === 'liquid') tol = Math.min(tol, mat.particle.densityTolerance);
  }
  f[11] = tol;
  let walls = 0, sticky = 0;
  const d = s.domain;
  if (d && P.walls) {
    FACES.forEach((face, k) => {
      const b = d.faces[face] ?? d.boundary;
      if (b === 'open') return;
      walls |= 1 << k;
      if (b === 'noslip') sticky |= 1 << k;
    });
    for (let k = 0; k < 3; k++) { f[20 + k] = d.min[k]; f[24 + k] = d.max[k]; }
  }
  u[12] = walls; u[13] = sticky; u[15] = P.densityIterations;
  for (let k = 0; k < 3; k++) f[16 + k] = s.gravity[k];
  f[28] = n0; f[29] = PRESSURE_TOLERANCE; u[31] = c.capacity;
  // The walls' clamp (wgsl.ts wallClamp) and the filter's spacing (pressure-filter-wgsl.ts filterCount).
  for (let k = 0; k < 3; k++) { f[CLAMP_PARAMS + k] = c.clearance[2 * k]; f[CLAMP_PARAMS + 4 + k] = c.clearance[2 * k + 1]; }
  f[CLAMP_PARAMS + 3] = c.restSpacing;
  f[CLAMP_PARAMS + 7] = c.cohesion.scale;
  // The domain's lower corner's free fourth word (Params.lo.w): cohesion's offset (step-wgsl.ts densityEnd).
  f[23] = c.cohesion.offset;
  // The pressure solves' shares of the present compression (Params.present: pressure-wgsl.ts).
  const shares = presentShares(P);
  f[PRESENT_PARAMS] = shares.away; f[PRESENT_PARAMS + 1] = shares.nearBody;
}

/**
 * The objects (objects.ts): their table, count, contact distance r + r_o, and the reach within
 * which a particle is not in free flight (step.ts nearMargin without the travel, within a cell);
 * the surface test's angle and ratio, the free bodies' count and the objects' adhesion.
 */
export function writeObjectHeader(data: ArrayBuffer, scene: Scene, ctx: StepContext, objects: GpuObjects, free: number): void {
  const u = new Uint32Array(data), f = new Float32Array(data), o = OBJECT_PARAMS;
  u[o] = objects.table; u[o + 1] = objects.count; f[o + 2] = ctx.r + ctx.ro;
  f[o + 3] = Math.min(ctx.reach, Math.max(ctx.objectReach, 4 * ctx.r) + ctx.ro);
  f[o + 5] = Math.sin((scene.particle.surfaceAngle * Math.PI) / 180); f[o + 6] = scene.particle.surfaceRatio;
  u[o + 7] = free;
  writeObjectAdhesion(data, o + 8, objects);
}

/**
 * The sub-timestep's parameters: its length dt, the exchange's sweep fraction and total A, the
 * pressure's pass limit and its solves' stop (`cold`: the run's first; `tolerance`: pressure.ts depthTolerance), whether PBF's
 * passes feed the stored pressure (`warm`: still-water.ts feedsWarmStart of the still state; where PBF is left with
 * compression as well: pbf-feed.ts feedShares), each liquid's particle-scale filter strength (pressure-courant.ts
 * LiquidFilter; 0 without the position shift). Returns the largest strength.
 */
export function writeStepParams(block: ParamBlock, scene: Scene, dt: number, frac: number, pressurePasses: number, A: number, filter: LiquidFilter, cold = false, tolerance = PRESSURE_TOLERANCE, warm = true): number {
  const f = block.f, u = block.u, P = scene.particle;
  const dtm = dt / P.moves;
  f[OBJECT_PARAMS + 4] = A;
  f[7] = frac; f[8] = dt; f[9] = dtm; f[14] = Math.pow(1 - FACE_FRICTION, 30 * dtm);
  // The solves' stop (pressure.ts COLD_TOLERANCE for the run's first; else depthTolerance's, `tolerance`).
  f[29] = cold ? COLD_TOLERANCE : tolerance; u[30] = pressurePasses;
  const largest = filter.write(dt);
  // PBF's share of each pass's pressure fed to the stored one (Params.pbfWarm), and where PBF was left
  // with compression (Params.pbfLeft, the upper corner's fourth word: step-wgsl.ts chebyshev, pbf-feed.ts):
  // the gate reads every liquid where none is filtered and the pressure stage runs (SolveState.gateEvery).
  const shares = feedShares(warm, !(largest > 0) && pressurePasses > 0);
  f[19] = shares.warm; f[27] = shares.left;
  return largest;
}
