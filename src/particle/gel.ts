/**
 * Stage "elasticity" (particle.densitySolver = "pbf"; beyond the paper): the viscoelastic material
 * of a liquid (`grid.viscoelastic`: elastic modulus, elastic limit, yield rate, decay, the grid
 * engine's Goktekin et al. 2004 gel) in the particle engine, as elastic springs with plasticity
 * (Clavet, Beaudoin & Poulin 2005, "Particle-based viscoelastic fluid simulation"). When a body of
 * such a liquid appears, each particle is tied to those of the same body within SPRING_REACH of
 * it (the 18 nearest on the rest lattice) by a spring of rest length L (their distance then).
 *
 * Stiffness. Springs of stiffness k to the 6 face and 12 edge neighbours of a cubic lattice of
 * spacing a give an isotropic solid of shear modulus k/a (Cauchy solid: λ = μ); the grid engine's
 * stress μ_E E is a shear modulus μ_E/2, so k = μ_E a/2 = μ_E r. The springs are solved each
 * sub-timestep as constraints on the positions the velocities would reach, x* = x + δt v (XPBD,
 * Macklin, Müller & Chentanez 2016: compliance 1/(k δt²), so the stiffness does not depend on the
 * passes), SPRING_PASSES Jacobi passes in gather form, each particle's displacement averaged over
 * its springs; the displacement becomes velocity. Implicit, so a stiff gel is stable at the
 * scene's step (the grid engine limits its step instead).
 *
 * Plasticity (per sub-timestep, as the grid engine's per step): where a spring's strain
 * e = (d − L)/L passes the elastic limit γ, the yield rate α moves L toward d by α of the excess,
 * L += α (d − L (1 + γ sign e)); decay relaxes L toward d at the decay rate,
 * L += (1 − exp(−decay δt)) (d − L). With elasticModulus 0 nothing is built and the engine is
 * exactly what it is without the option.
 *
 * Springs are kept per particle (LiquidParticles.id), both ends holding the spring, so a pass
 * over a range of particles writes only their own displacements.
 */
import type { StepContext } from './context.ts';
import { HashGrid } from '../spatial/hash-grid.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';

/** Springs tie particles of one body closer than this many lattice spacings (2r) at its start: face and edge neighbours. */
export const SPRING_REACH = 1.5;
/** Jacobi passes of the spring constraints a sub-timestep. */
export const SPRING_PASSES = 8;
/** Jacobi over-relaxation of the averaged spring passes (Macklin et al. 2014 suggest 1–2): jello drop, 8 passes, settled height 0.83 → 0.88 of rest from 1 to 1.5. */
const RELAX = 1.5;

export interface GelMaterial {
  /** Spring stiffness k = μ_E r, N/m (0: not a gel). */
  stiffness: number;
  limit: number;
  yieldRate: number;
  decay: number;
}

/** Springs by particle id: rows start[id] .. start[id + 1] of partner ids and rest lengths. */
export class GelSprings {
  start = new Int32Array(1);
  partner = new Int32Array(0);
  rest = new Float64Array(0);
  /** XPBD multipliers of the sub-timestep's passes (scratch, per entry). */
  lambda = new Float64Array(0);
  /** Ids below this have their rows; later ones are tied when they first appear. */
  built = 0;

  /** Appends the rows of ids [built, upTo) from per-id lists. */
  append(rows: number[][], lengths: number[][], upTo: number): void {
    const add = rows.reduce((s, r) => s + r.length, 0);
    const old = this.start[this.built];
    const start = new Int32Array(upTo + 1), partner = new Int32Array(old + add), rest = new Float64Array(old + add);
    start.set(this.start.subarray(0, this.built + 1));
    partner.set(this.partner.subarray(0, old));
    rest.set(this.rest.subarray(0, old));
    let q = old;
    for (let id = this.built; id < upTo; id++) {
      const k = id - this.built;
      for (let e = 0; e < (rows[k]?.length ?? 0); e++) { partner[q] = rows[k][e]; rest[q] = lengths[k][e]; q++; }
      start[id + 1] = q;
    }
    this.start = start; this.partner = partner; this.rest = rest; this.built = upTo;
  }
}

/** Per material the gel parameters (null: no material is a gel). */
export function gelMaterials(ctx: StepContext): GelMaterial[] | null {
  const scene = ctx.scene;
  let any = false;
  const out = scene.materialNames.map((name) => {
    const m = scene.materials[name];
    const ve = m.kind === 'liquid' ? m.grid.viscoelastic : undefined;
    const stiffness = ve ? ve.elasticModulus * ctx.r : 0;
    if (stiffness > 0) any = true;
    return { stiffness, limit: ve?.elasticLimit ?? 0, yieldRate: ve?.yieldRate ?? 0, decay: ve?.decay ?? 0 };
  });
  return any ? out : null;
}

/** Ties the particles that appeared since the last call (ids ≥ springs.built), each batch to its own particles within reach. */
function tieNew(ctx: StepContext, springs: GelSprings, gel: GelMaterial[]): void {
  const L = ctx.liquid, n = L.count, id = L.id, upTo = L.nextId;
  if (springs.built >= upTo) return;
  const fresh: number[] = [];
  for (let i = 0; i < n; i++) if (id[i] >= springs.built && gel[L.material[i]].stiffness > 0) fresh.push(i);
  const reach = SPRING_REACH * 2 * ctx.r, reach2 = reach * reach;
  const pos = new Float64Array(3 * fresh.length);
  fresh.forEach((i, k) => pos.set(L.pos.subarray(3 * i, 3 * i + 3), 3 * k));
  const grid = new HashGrid(reach);
  grid.build(pos, fresh.length);
  const rows: number[][] = [], lengths: number[][] = [], cells = new Int32Array(27);
  for (let k = 0; k < fresh.length; k++) {
    const i = fresh[k], row: number[] = [], len: number[] = [];
    const m = grid.cellsNear(pos[3 * k], pos[3 * k + 1], pos[3 * k + 2], cells, 1);
    for (let q = 0; q < m; q++) {
      for (let s = grid.start[cells[q]], e = s + grid.count[cells[q]]; s < e; s++) {
        const o = grid.order[s];
        if (o === k || L.material[fresh[o]] !== L.material[i]) continue;
        const d2 = (pos[3 * o] - pos[3 * k]) ** 2 + (pos[3 * o + 1] - pos[3 * k + 1]) ** 2 + (pos[3 * o + 2] - pos[3 * k + 2]) ** 2;
        if (d2 >= reach2) continue;
        row.push(id[fresh[o]]);
        len.push(Math.sqrt(d2));
      }
    }
    rows[id[i] - springs.built] = row;
    lengths[id[i] - springs.built] = len;
  }
  springs.append(rows, lengths, upTo);
}

/** What the elasticity stage keeps: the springs, and the id → index map of the sub-timestep. */
export class GelState {
  springs = new GelSprings();
  index = new Int32Array(0);
}

/** The elasticity stage of one sub-timestep of length dt: changes velocities and the springs' rest lengths. */
export function applyElasticity(ctx: StepContext, dt: number): void {
  const gel = (ctx.gelMaterials ??= gelMaterials(ctx) ?? []);
  if (gel.length === 0) return;
  const st = (ctx.gel ??= new GelState());
  tieNew(ctx, st.springs, gel);
  const L = ctx.liquid, n = L.count, id = L.id, pos = L.pos, vel = L.vel, mat = L.material, mass = ctx.mass;
  const sp = st.springs;
  if (st.index.length < L.nextId) st.index = new Int32Array(Math.ceil(L.nextId * 1.25) + 16);
  const index = st.index.fill(-1, 0, L.nextId);
  for (let i = 0; i < n; i++) index[id[i]] = i;
  // Predicted positions, and the displacement of a pass (stage scratch).
  const mem = ctx.stageScratch(8 * 9 * n + 64, false);
  const xs = mem.f64(3 * n), dx = mem.f64(3 * n), total = mem.f64(3 * n);
  for (let o = 0; o < 3 * n; o++) xs[o] = pos[o] + dt * vel[o];
  total.fill(0);
  const dt2 = dt * dt;
  if (sp.lambda.length < sp.partner.length) sp.lambda = new Float64Array(sp.partner.length);
  sp.lambda.fill(0);
  for (let pass = 0; pass < SPRING_PASSES; pass++) {
    springPassRange(sp, index, id, mat, mass, gel, xs, dx, dt2, 0, n);
    for (let o = 0; o < 3 * n; o++) { xs[o] += dx[o]; total[o] += dx[o]; }
  }
  const invDt = 1 / dt;
  for (let o = 0; o < 3 * n; o++) vel[o] += total[o] * invDt;
  plasticityRange(sp, index, id, mat, gel, xs, dt, 0, n);
}

/**
 * One Jacobi pass over the springs of particles [i0, i1): each particle's displacement toward
 * satisfying its springs (XPBD with compliance 1/(k δt²), started afresh every pass: the
 * sub-timestep's constraint force), averaged over its springs, into dx.
 */
export function springPassRange(
  sp: GelSprings, index: Int32Array, id: Int32Array, mat: Uint16Array, mass: Float64Array, gel: GelMaterial[],
  xs: Float64Array, dx: Float64Array, dt2: number, i0: number, i1: number,
): void {
  const start = sp.start, partner = sp.partner, rest = sp.rest, lam = sp.lambda;
  for (let i = i0; i < i1; i++) {
    const me = id[i], g = gel[mat[i]];
    let cx = 0, cy = 0, cz = 0;
    if (me < sp.built && g.stiffness > 0) {
      const wi = 1 / mass[mat[i]], comp = 1 / (g.stiffness * dt2);
      for (let q = start[me], q1 = start[me + 1]; q < q1; q++) {
        const j = index[partner[q]];
        if (j < 0) continue;
        const ex = xs[3 * i] - xs[3 * j], ey = xs[3 * i + 1] - xs[3 * j + 1], ez = xs[3 * i + 2] - xs[3 * j + 2];
        const d = Math.sqrt(ex * ex + ey * ey + ez * ez);
        if (d === 0) continue;
        const wj = 1 / mass[mat[j]];
        // XPBD: the spring's multiplier accumulates over the passes; Jacobi under-relaxed by the
        // larger spring count of its two ends (Macklin et al. 2014's averaging, symmetric so that
        // both ends keep the same multiplier and momentum is exchanged in equal parts).
        const pj = partner[q], ns = Math.max(q1 - start[me], start[pj + 1] - start[pj]);
        const dl = (RELAX / Math.sqrt(ns)) * ((-(d - rest[q]) - comp * lam[q]) / (wi + wj + comp));
        lam[q] += dl;
        const f = (wi * dl) / d;
        cx += f * ex; cy += f * ey; cz += f * ez;
      }
    }
    dx[3 * i] = cx; dx[3 * i + 1] = cy; dx[3 * i + 2] = cz;
  }
}

/** Plastic yield and decay of the rest lengths of particles [i0, i1)'s springs, from the positions xs. */
export function plasticityRange(
  sp: GelSprings, index: Int32Array, id: Int32Array, mat: Uint16Array, gel: GelMaterial[], xs: Float64Array, dt: number, i0: number, i1: number,
): void {
  const start = sp.start, partner = sp.partner, rest = sp.rest;
  for (let i = i0; i < i1; i++) {
    const me = id[i], g = gel[mat[i]];
    if (me >= sp.built || g.stiffness === 0) continue;
    const relax = g.decay > 0 ? -Math.expm1(-g.decay * dt) : 0;
    for (let q = start[me], q1 = start[me + 1]; q < q1; q++) {
      const j = index[partner[q]];
      if (j < 0) continue;
      const d = Math.hypot(xs[3 * i] - xs[3 * j], xs[3 * i + 1] - xs[3 * j + 1], xs[3 * i + 2] - xs[3 * j + 2]);
      let L = rest[q];
      const e = (d - L) / L;
      if (e > g.limit) L += g.yieldRate * (d - L * (1 + g.limit));
      else if (e < -g.limit) L += g.yieldRate * (d - L * (1 - g.limit));
      if (relax > 0) L += relax * (d - L);
      rest[q] = L;
    }
  }
}

/** Writes the springs into a checkpoint (nothing when no liquid is a gel). */
export function saveGel(ctx: StepContext, w: CheckpointWriter): void {
  const st = ctx.gel;
  if (!st) return;
  const sp = st.springs, m = sp.start[sp.built];
  w.array('gel.start', sp.start.slice(0, sp.built + 1)).array('gel.partner', sp.partner.slice(0, m)).array('gel.rest', sp.rest.slice(0, m)).scalar('gel.built', sp.built);
}

/** Restores the springs saveGel wrote. */
export function restoreGel(ctx: StepContext, r: CheckpointReader): void {
  const st = (ctx.gel ??= new GelState()), sp = st.springs;
  sp.start = r.array('gel.start', Int32Array).slice();
  sp.partner = r.array('gel.partner', Int32Array).slice();
  sp.rest = r.array('gel.rest', Float64Array).slice();
  sp.built = r.scalar('gel.built');
}
