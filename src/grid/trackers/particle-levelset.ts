/**
 * The particle level set (Enright, Fedkiw, Ferziger & Mitchell 2002, "A hybrid particle level set
 * method for improved interface capturing", J. Comput. Phys. 183; Cline et al. §10.7–10.8),
 * `grid.tracking: "particle-levelset"`: the level set of ./levelset.ts with massless marker
 * particles on both sides of its surface that rebuild it where it is under-resolved.
 *
 *  - Seeding (§3.1): `perCell` particles in every cell within `bandMax` (3h) of the surface where
 *    the surface is under-resolved (thin, cornered or tightly curved, and beside objects), half as
 *    many where it is smooth (pls-quota.ts), at a random point of the cell, each attracted along ∇φ
 *    (central differences at the cell centres, interpolated) to a random level φ_goal on its side,
 *    |φ_goal| ∈ [r_min, bandMax]; its sign is the side it lands on.
 *  - Radii (§3.2, Cline equation 31): r = clamp(s φ(x_p), r_min, r_max), r_min = 0.1 h,
 *    r_max = 0.5 h, stored with the particle's sign.
 *  - Error correction (§3.3): after φ and the particles have moved (RK2), a particle on the wrong
 *    side by more than its radius has escaped; each escaped particle's sphere
 *    φ_p(x) = s_p (r_p − |x − x_p|) is taken at the eight cell centres around it into
 *    φ⁺ = max(φ⁺, φ_p) (positive particles) or φ⁻ = min(φ⁻, φ_p) (negative ones), and each centre
 *    keeps whichever of φ⁺, φ⁻ is smaller in magnitude; the centre of a cell that holds an escaped
 *    liquid particle then keeps φ ≤ −0.1 h (`sheetDepth`: a sheet thinner than a cell stays a layer
 *    of liquid cells; docs/decisions.md, "Sheets thinner than a cell"). Done after advection and
 *    again after redistancing; then the radii of the particles not escaped are reset. Particles between a
 *    cell's centre and a solid that holds the liquid do not correct (`besideSolid`), nor do air
 *    particles within two cells of one (`nearSolid`: they punched a film on a floor into a lace).
 *  - Reseeding (§3.5), every `reseedEvery` steps: particles further than bandMax from the surface
 *    are deleted and cells within the band are topped up to their count; escaped particles are kept
 *    (they hold features thinner than the grid), cells holding more than twice their count lose the
 *    extras, and a sheet's cells its liquid particles have left take one (`sheetSeeds`, pls-sheet-seeds.ts).
 * A particle that leaves the grid's cells or enters a solid is deleted.
 */
import type { CheckpointReader, CheckpointWriter } from '../../io/checkpoint.ts';
import type { Scene } from '../../scene/scene.ts';
import type { CompiledShape } from '../../scene/shapes.ts';
import { sampleInto as sampleInto_, sampleVectorInto as sampleVectorInto_ } from '../interpolate.ts';
import type { Stage } from '../pipeline.ts';
import type { GridSimulation, PendingLiquid } from '../step.ts';
import { SOLID as SOLID_, type GridStore } from '../store.ts';
import { fillSolidPhi } from '../redistance.ts';
import { VolumeController } from '../volume-growth.ts';
import { levelSetVolume } from '../levelset-volume.ts';
import { LevelSetTracker } from './levelset.ts';
import { besideSolid as besideSolid_, cellAt as cellAt_, keepSheets as keepSheets_, nearSolid as nearSolid_ } from './pls-cells.ts';
import { SeedQuota } from './pls-quota.ts';
import { withSheetPoints } from './pls-sheet-points.ts';
import { seedSheets } from './pls-sheet-seeds.ts';
import type { SurfaceJob } from '../../surface/index.ts';
import { registerTracker } from './tracker.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const sampleInto = sampleInto_, sampleVectorInto = sampleVectorInto_, SOLID = SOLID_;
const cellAt = cellAt_, besideSolid = besideSolid_, nearSolid = nearSolid_, keepSheets = keepSheets_;

const p3 = new Float64Array(3);
const gq = new Float64Array(4);
const one = new Float64Array(1);
/** A seeding try's random numbers: the point in the cell, then the goal level. */
const rq = new Float64Array(4);

export class ParticleLevelSet {
  count = 0;
  pos = new Float64Array(3 * 4096);
  /** Signed radius: negative particles (inside the liquid) store −r. */
  radius = new Float64Array(4096);
  /** Escaped particles found by the last correction. */
  escaped = 0;
  private seeded = false;
  private rng: number;
  private plus = new Float64Array(0);
  private minus = new Float64Array(0);
  private cellCount = new Int32Array(0);
  /** Cells holding an escaped liquid particle, found by the correction in progress. */
  private sheet = new Uint8Array(0);
  /** φ at the centre of a cell holding an escaped liquid particle is at most −sheetDepth·h (0: off). */
  sheetDepth = 0.1;
  /** At each reseeding, liquid particles where a thin sheet has stretched past its own (pls-sheet-seeds.ts; docs/decisions.md, "The honey drop's draped sheet"). */
  sheetSeeds = true;
  /** Count the volume the minimum sheet thickness adds (m³, counter plsSheetVolume): two passes over the cells a correction, for measuring. */
  countSheetVolume = false;
  /** φ at each particle as `afterAdvection` left it, read by the correction that follows it. */
  private phiAt = new Float64Array(4096);
  private readonly quotas = new SeedQuota();

  constructor(seed: number, readonly perCell = 16, readonly reseedEvery = 20, readonly bandCells = 3) {
    this.rng = (seed * 2654435761) >>> 0 || 1;
  }

  save(w: CheckpointWriter): void {
    w.array('ext.plsPos', this.pos.slice(0, 3 * this.count)).array('ext.plsRadius', this.radius.slice(0, this.count));
    w.scalar('ext.plsSeeded', this.seeded ? 1 : 0).scalar('ext.plsRng', this.rng);
  }

  restore(r: CheckpointReader): void {
    const pos = r.array('ext.plsPos', Float64Array), radius = r.array('ext.plsRadius', Float64Array);
    this.count = 0;
    for (let q = 0; q < radius.length; q++) this.add(pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], radius[q]);
    this.seeded = r.scalar('ext.plsSeeded') === 1;
    this.rng = r.scalar('ext.plsRng');
  }

  /**
   * Fills `out` with uniform numbers in [0, 1) (mulberry32: deterministic across runs and restores
   * of the same scene). Into an array: a double returned from a call is boxed on the heap.
   */
  private randoms(out: Float64Array): void {
    let r = this.rng;
    for (let q = 0; q < out.length; q++) {
      let t = (r = (r + 0x6d2b79f5) >>> 0);
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out[q] = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    this.rng = r;
  }

  add(x: number, y: number, z: number, r: number): void {
    if (this.count === this.radius.length) {
      const p = new Float64Array(2 * this.pos.length);
      p.set(this.pos);
      this.pos = p;
      const q = new Float64Array(2 * this.radius.length);
      q.set(this.radius);
      this.radius = q;
    }
    const i = this.count++;
    this.pos[3 * i] = x; this.pos[3 * i + 1] = y; this.pos[3 * i + 2] = z;
    this.radius[i] = r;
  }

  /** After redistancing: the second correction, the radii, and periodic reseeding (the first call seeds). */
  afterRedistance(sim: GridSimulation): void {
    if (!this.seeded) {
      this.reseed(sim);
      this.seeded = true;
      return;
    }
    this.correct(sim, true);
    if (sim.steps % this.reseedEvery === 0) { this.reseed(sim); if (this.sheetSeeds) sim.count('plsSheetSeeds', seedSheets(sim, this)); }
  }

  /**
   * After the level set moved: the particles by RK2 (equation 12) through `vc`, the cell-centre
   * velocities the level set moved with (LevelSet.centreVelocities, interpolated trilinearly), then
   * the first correction.
   */
  afterAdvection(sim: GridSimulation, dt: number, vc: Float64Array): void {
    if (!this.seeded) return;
    const s = sim.store, d = sim.d, P = this.pos, R = this.radius, inv = 1 / d.h, o = d.origin;
    const phi = s.phi, band = sim.band;
    if (this.phiAt.length < this.count) this.phiAt = new Float64Array(this.radius.length);
    const F = this.phiAt;
    // φ has already moved: its value at the new position is the one the first correction tests.
    let w = 0;
    // (Coordinates go to the samplers in an array: see interpolate.ts denseSample.)
    const g = gq;
    g[3] = band;
    for (let q = 0; q < this.count; q++) {
      const x = P[3 * q], y = P[3 * q + 1], z = P[3 * q + 2];
      g[0] = (x - o[0]) * inv - 0.5; g[1] = (y - o[1]) * inv - 0.5; g[2] = (z - o[2]) * inv - 0.5;
      sampleVectorInto(s, vc, g, p3);
      const mx = x + 0.5 * dt * p3[0], my = y + 0.5 * dt * p3[1], mz = z + 0.5 * dt * p3[2];
      g[0] = (mx - o[0]) * inv - 0.5; g[1] = (my - o[1]) * inv - 0.5; g[2] = (mz - o[2]) * inv - 0.5;
      sampleVectorInto(s, vc, g, p3);
      const nx = x + dt * p3[0], ny = y + dt * p3[1], nz = z + dt * p3[2];
      g[0] = (nx - o[0]) * inv; g[1] = (ny - o[1]) * inv; g[2] = (nz - o[2]) * inv;
      const c = cellAt(s, g);
      if (c < 0 || s.type[c] === SOLID || !Number.isFinite(nx + ny + nz)) continue;
      P[3 * w] = nx; P[3 * w + 1] = ny; P[3 * w + 2] = nz;
      g[0] -= 0.5; g[1] -= 0.5; g[2] -= 0.5;
      sampleInto(s, phi, g, F, w);
      R[w++] = R[q];
    }
    this.count = w;
    this.correct(sim, false, true);
  }

  /**
   * Error correction with the escaped particles (§3.3); with `radii`, the particles on their own
   * side take the radius of equation 31 from the same φ (the correction changes φ only within a
   * cell of escaped particles). With `sampled`, φ at the particles is the one `afterAdvection` left.
   * Returns how many escaped.
   */
  correct(sim: GridSimulation, radii = false, sampled = false): number {
    const s = sim.store, n = s.count, h = sim.d.h, o = sim.d.origin, inv = 1 / h, band = sim.band;
    const rmin = 0.1 * h, rmax = 0.5 * h;
    if (this.plus.length < n) {
      this.plus = new Float64Array(Math.ceil(n * 1.3));
      this.minus = new Float64Array(this.plus.length);
    }
    const plus = this.plus, minus = this.minus, phi = s.phi;
    const P = this.pos, R = this.radius, F = this.phiAt;
    let escaped = 0, touched = false;
    const g = gq;
    g[3] = band;
    for (let q = 0; q < this.count; q++) {
      const x = P[3 * q], y = P[3 * q + 1], z = P[3 * q + 2], r = R[q];
      const gx = (x - o[0]) * inv - 0.5, gy = (y - o[1]) * inv - 0.5, gz = (z - o[2]) * inv - 0.5;
      if (!sampled) {
        g[0] = gx; g[1] = gy; g[2] = gz;
        sampleInto(s, phi, g, one, 0);
      }
      const fp = sampled ? F[q] : one[0];
      const sign = r > 0 ? 1 : -1, ar = sign * r;
      if (sign * fp >= -ar) {
        if (radii && sign * fp >= 0) R[q] = sign * Math.min(rmax, Math.max(rmin, sign * fp));
        continue;
      }
      g[0] = gx + 0.5; g[1] = gy + 0.5; g[2] = gz + 0.5;
      if (sign > 0 ? nearSolid(s, sim.d.kind, g) : besideSolid(s, sim.d.kind, g)) continue;
      if (!touched) {
        plus.set(phi.subarray(0, n));
        minus.set(phi.subarray(0, n));
        if (this.sheet.length < n) this.sheet = new Uint8Array(plus.length);
        this.sheet.fill(0, 0, n);
        touched = true;
      }
      escaped++;
      if (sign < 0) {
        const own = cellAt(s, g);
        if (own >= 0) this.sheet[own] = 1;
      }
      // (Integers as int32: a double argument is boxed on the heap.)
      const i0 = Math.floor(gx) | 0, j0 = Math.floor(gy) | 0, k0 = Math.floor(gz) | 0;
      for (let e = 0; e < 8; e++) {
        const i = i0 + (e & 1), j = j0 + ((e >> 1) & 1), k = k0 + ((e >> 2) & 1);
        const c = s.find(i, j, k);
        if (c < 0 || s.type[c] === SOLID) continue;
        const dx = o[0] + h * (i + 0.5) - x, dy = o[1] + h * (j + 0.5) - y, dz = o[2] + h * (k + 0.5) - z;
        const fq = sign * (ar - Math.sqrt(dx * dx + dy * dy + dz * dz));
        if (sign > 0) { if (fq > plus[c]) plus[c] = fq; }
        else if (fq < minus[c]) minus[c] = fq;
      }
    }
    if (touched) {
      for (let c = 0; c < n; c++) phi[c] = Math.abs(plus[c]) <= Math.abs(minus[c]) ? plus[c] : minus[c];
      if (this.sheetDepth > 0) {
        const v0 = this.countSheetVolume ? levelSetVolume(s, h) : 0;
        keepSheets(s, this.sheet, -this.sheetDepth * h, h);
        if (this.countSheetVolume) sim.count('plsSheetVolume', levelSetVolume(s, h) - v0);
      }
      fillSolidPhi(s, band, sim.trailingFill);
    }
    this.escaped = escaped;
    return escaped;
  }

  /** ∇φ at every cell centre (change per cell) by central differences, one-sided beside solids and the store's edge. */
  private phiGradient(s: GridStore): Float64Array {
    const n = s.count, { nb, phi, type } = s;
    if (this.grad.length < 3 * n) this.grad = new Float64Array(Math.ceil(3 * n * 1.3));
    const g = this.grad;
    for (let c = 0; c < n; c++) {
      for (let a = 0; a < 3; a++) {
        const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
        const okLo = lo >= 0 && type[lo] !== SOLID, okHi = hi >= 0 && type[hi] !== SOLID;
        g[3 * c + a] = okLo && okHi ? 0.5 * (phi[hi] - phi[lo]) : okHi ? phi[hi] - phi[c] : okLo ? phi[c] - phi[lo] : 0;
      }
    }
    return g;
  }
  private grad = new Float64Array(0);

  /** Moves every particle by `distance` along ∇φ/|∇φ| (∇φ by central differences at the cell centres, interpolated). */
  moveAlongNormals(sim: GridSimulation, distance: number): void {
    const s = sim.store, g = this.phiGradient(s);
    const o = sim.d.origin, inv = 1 / sim.d.h, P = this.pos, at = gq;
    for (let q = 0; q < this.count; q++) {
      at[0] = (P[3 * q] - o[0]) * inv - 0.5; at[1] = (P[3 * q + 1] - o[1]) * inv - 0.5; at[2] = (P[3 * q + 2] - o[2]) * inv - 0.5;
      sampleVectorInto(s, g, at, p3);
      const l = Math.sqrt(p3[0] * p3[0] + p3[1] * p3[1] + p3[2] * p3[2]);
      if (!(l > 1e-12)) continue;
      const k = distance / l;
      P[3 * q] += k * p3[0]; P[3 * q + 1] += k * p3[1]; P[3 * q + 2] += k * p3[2];
    }
  }

  /** Deletes the particles for which `drop(x, y, z, signed radius)` holds. */
  remove(drop: (x: number, y: number, z: number, r: number) => boolean): void {
    const P = this.pos, R = this.radius;
    let w = 0;
    for (let q = 0; q < this.count; q++) {
      if (drop(P[3 * q], P[3 * q + 1], P[3 * q + 2], R[q])) continue;
      P[3 * w] = P[3 * q]; P[3 * w + 1] = P[3 * q + 1]; P[3 * w + 2] = P[3 * q + 2];
      R[w++] = R[q];
    }
    this.count = w;
  }

  /** Deletes particles far from the surface (and extras in crowded cells); fills the band's cells up to perCell. */
  reseed(sim: GridSimulation): void {
    const s: GridStore = sim.store, d = sim.d, h = d.h, o = d.origin, inv = 1 / h, band = sim.band;
    const bandMax = Math.min(this.bandCells * h, band - h), rmin = 0.1 * h, rmax = 0.5 * h;
    if (this.cellCount.length < s.count) this.cellCount = new Int32Array(Math.ceil(s.count * 1.3));
    const cnt = this.cellCount;
    cnt.fill(0, 0, s.count);
    const quota = this.quotas.compute(s, d.kind, h, bandMax, this.perCell, Math.ceil(this.perCell / 2));
    let w = 0;
    const P = this.pos, R = this.radius, g = gq, f = one, grad = this.phiGradient(s);
    // (Coordinates and values go through arrays: see afterAdvection.)
    g[3] = band;
    for (let q = 0; q < this.count; q++) {
      const x = P[3 * q], y = P[3 * q + 1], z = P[3 * q + 2];
      g[0] = (x - o[0]) * inv - 0.5; g[1] = (y - o[1]) * inv - 0.5; g[2] = (z - o[2]) * inv - 0.5;
      sampleInto(s, s.phi, g, f, 0);
      if (Math.abs(f[0]) > bandMax) continue;
      g[0] = (x - o[0]) * inv; g[1] = (y - o[1]) * inv; g[2] = (z - o[2]) * inv;
      const c = cellAt(s, g);
      if (c < 0 || s.type[c] === SOLID || cnt[c] >= 2 * quota[c]) continue;
      cnt[c]++;
      P[3 * w] = x; P[3 * w + 1] = y; P[3 * w + 2] = z;
      R[w++] = R[q];
    }
    this.count = w;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID || Math.abs(s.phi[c]) > bandMax) continue;
      const want = quota[c];
      for (let tries = 0; cnt[c] < want && tries < 2 * want; tries++) {
        this.randoms(rq);
        let x = o[0] + h * (s.ci[c] + rq[0]), y = o[1] + h * (s.cj[c] + rq[1]), z = o[2] + h * (s.ck[c] + rq[2]);
        g[0] = (x - o[0]) * inv - 0.5; g[1] = (y - o[1]) * inv - 0.5; g[2] = (z - o[2]) * inv - 0.5;
        sampleInto(s, s.phi, g, f, 0);
        let fp = f[0];
        // Alternate sides so both get particles; attract towards a random level on that side.
        const sign = tries % 2 === 0 ? -1 : 1;
        const goal = sign * (rmin + rq[3] * (bandMax - rmin));
        for (let it = 0; it < 3 && Math.abs(fp - goal) > 0.05 * h; it++) {
          sampleVectorInto(s, grad, g, p3);
          const gl = Math.sqrt(p3[0] * p3[0] + p3[1] * p3[1] + p3[2] * p3[2]);
          if (!(gl > 1e-9)) break;
          const step = ((goal - fp) * h) / gl; // gl is the change of φ over one cell
          x += (step * p3[0]) / gl; y += (step * p3[1]) / gl; z += (step * p3[2]) / gl;
          g[0] = (x - o[0]) * inv - 0.5; g[1] = (y - o[1]) * inv - 0.5; g[2] = (z - o[2]) * inv - 0.5;
          sampleInto(s, s.phi, g, f, 0);
          fp = f[0];
        }
        if (sign * fp < rmin || Math.abs(fp) > bandMax) continue;
        g[0] = (x - o[0]) * inv; g[1] = (y - o[1]) * inv; g[2] = (z - o[2]) * inv;
        const home = cellAt(s, g);
        if (home < 0 || s.type[home] === SOLID) continue;
        this.add(x, y, z, sign * Math.min(rmax, Math.max(rmin, sign * fp)));
        cnt[c]++;
      }
    }
  }
}

/** The level set with the particles' stages: correction after redistancing and after moving. */
export class ParticleLevelSetTracker extends LevelSetTracker {
  override readonly name: string = 'particle-levelset';
  /**
   * φ's transport substeps move the surface at most ¾ of a cell along an axis (half in the plain level set): three a step at the honey
   * drop's cfl 2 instead of four, the same volume at cfl 1 and below; one-cell substeps lost 2.3 % of a sphere six cells in radius moved
   * 14 cells, which the particles did not repair (BENCHMARKS.md, issue 17). The shift beyond a 3 % error is one Newton step (levelset.ts).
   */
  protected override readonly transportCells: number = 0.75;
  protected override readonly volumeEvaluations: number = 1;
  readonly particles: ParticleLevelSet;

  constructor(scene: Scene) {
    super(scene);
    this.volumeControl.fromBulk = scene.grid.volumeCorrection !== 'uniform';
    const pls = (this.particles = new ParticleLevelSet(scene.seed, scene.grid.particlesPerCell));
    const correct: Stage = {
      name: 'pls-correct',
      run(sim) {
        pls.afterRedistance(sim);
        sim.count('plsParticles', pls.count); sim.count('plsEscaped', pls.escaped);
      },
    };
    this.afterGrid.push(correct);
  }

  /** φ moves (level set), then the particles through the same velocities, then the first correction. */
  override move(sim: GridSimulation, dt: number): void {
    super.move(sim, dt);
    this.particles.afterAdvection(sim, dt, this.levelSet.centreVelocities());
  }

  /**
   * The volume correction moved the surface out by `shift` along its normal: the particles near it
   * move with it, else the air particles it passed over would carve the liquid back.
   */
  protected override surfaceMoved(sim: GridSimulation, shift: number): void {
    // A shift smaller than the particles' smallest radius cannot make one escape: gather them.
    this.pendingShift += shift;
    if (Math.abs(this.pendingShift) < 0.05 * sim.d.h) return;
    this.particles.moveAlongNormals(sim, this.pendingShift);
    this.pendingShift = 0;
  }

  private pendingShift = 0;

  /**
   * Volume correction mostly through the pressure solve (volume-growth.ts, Kim et al. 2007 §4): a
   * uniform shift of φ grows every thin sheet and every piece left on a wall or under the lid by
   * its area each step (spout-fill's wall sheets and the stream under its lid: docs/decisions.md).
   * The shift stays as a backstop beyond the controller's `backstop` error.
   */
  override correctVolume(sim: GridSimulation, dt: number): void {
    const c = this.volumeControl;
    sim.pressure.growth = c.update(sim.store, sim.d.h, this.expected, dt);
    sim.pressure.removalDepth = c.fromBulk ? sim.d.h : 0;
    sim.count('volumeGrowth', c.growth);
    const target = c.backstopTarget(this.volume(sim), this.expected);
    if (target !== null) this.shiftTo(sim, target);
  }

  /** The controller of the volume correction's divergence (its state is saved with the tracker). */
  readonly volumeControl = new VolumeController();

  /** φ's job with the liquid particles of sheets thinner than a cell, meshed through them (pls-sheet-points.ts). */
  override surfaceJob(sim: GridSimulation, color: [number, number, number]): SurfaceJob { return withSheetPoints(super.surfaceJob(sim, color), sim, this.particles); }

  /** New liquid (a blob source, a spout's column) takes the place of the air particles in it. */
  override afterRebuild(sim: GridSimulation, s: GridStore, pending: readonly PendingLiquid[]): void {
    super.afterRebuild(sim, s, pending);
    for (const p of pending) this.particles.remove((x, y, z, r) => r > 0 && p.sdf(x, y, z) < 0);
  }

  /** The sink takes the liquid and the particles in it (else the negative ones would rebuild it). */
  override sink(sim: GridSimulation, shape: CompiledShape): void {
    super.sink(sim, shape);
    // Particles live in the grid's cells: a sink whose bounds miss the cells' box holds none.
    const st = sim.store, h = sim.d.h, o = sim.d.origin, { min, max } = shape.bounds;
    let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let c = 0; c < st.count; c++) {
      const i = st.ci[c], j = st.cj[c], k = st.ck[c];
      if (i < lo[0]) lo[0] = i; if (i > hi[0]) hi[0] = i;
      if (j < lo[1]) lo[1] = j; if (j > hi[1]) hi[1] = j;
      if (k < lo[2]) lo[2] = k; if (k > hi[2]) hi[2] = k;
    }
    for (let a = 0; a < 3; a++) if (max[a] < o[a] + h * lo[a] || min[a] > o[a] + h * (hi[a] + 1)) return;
    this.particles.remove((x, y, z) => shape.sdf(x, y, z) < 0);
  }

  override save(w: CheckpointWriter): void {
    super.save(w);
    this.particles.save(w);
    w.scalar('pls.pendingShift', this.pendingShift);
    this.volumeControl.save(w);
  }

  override restore(sim: GridSimulation, r: CheckpointReader): void {
    super.restore(sim, r);
    if (r.has('ext.plsPos')) this.particles.restore(r);
    this.pendingShift = r.has('pls.pendingShift') ? r.scalar('pls.pendingShift') : 0;
    sim.pressure.growth = this.volumeControl.restore(r);
    sim.pressure.removalDepth = this.volumeControl.fromBulk ? sim.d.h : 0;
  }
}

registerTracker({ name: 'particle-levelset', create: (scene) => new ParticleLevelSetTracker(scene) });
