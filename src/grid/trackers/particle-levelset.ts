/**
 * The particle level set (Enright, Fedkiw, Ferziger & Mitchell 2002; Enright, Marschner & Fedkiw
 * 2002; Cline et al. §10.7–10.8), `grid.tracking: "particle-levelset"`: the level set of
 * ./levelset.ts with marker particles on both sides of its surface that repair it.
 *
 * Marker particles live on both sides of the surface within `bandMax` of it: negative ones inside
 * the liquid, positive ones outside, each with a radius (equation 31) r = clamp(|φ(x_p)|, 0.1 h,
 * 0.5 h), the side stored as the sign of the radius. Per step:
 *   - φ is moved by the level set's first-order update (levelset.ts) and the particles by RK2;
 *   - error correction: a particle on the wrong side of φ by more than its radius has "escaped";
 *     each escaped particle p defines φ_p(x) = s_p (r_p − |x − x_p|) at the eight cell centres
 *     around it, and φ⁺ = max(φ, φ_p⁺), φ⁻ = min(φ, φ_p⁻); φ takes whichever of φ⁺, φ⁻ is smaller
 *     in magnitude. Done after the advection and again after redistancing;
 *   - after the second correction the radii are reset from φ, and every `reseedEvery` steps
 *     particles far from the surface are dropped and cells near it topped up to `perCell`.
 * New particles are placed at random in their cell (seeded from the scene) and attracted towards
 * a random level φ_goal ∈ [r_min, bandMax] on their side along ∇φ (Enright et al. §3.1).
 */
import type { CheckpointReader, CheckpointWriter } from '../../io/checkpoint.ts';
import type { Scene } from '../../scene/scene.ts';
import type { GridDomain } from '../domain.ts';
import { sampleAt, tracePoint } from '../interpolate.ts';
import type { Stage } from '../pipeline.ts';
import type { GridSimulation } from '../step.ts';
import { SOLID, type GridStore } from '../store.ts';
import { LevelSetTracker } from './levelset.ts';
import { registerTracker } from './tracker.ts';

const p3 = new Float64Array(3);

export class ParticleLevelSet {
  count = 0;
  pos = new Float64Array(3 * 4096);
  /** Signed radius: negative particles (inside the liquid) store −r. */
  radius = new Float64Array(4096);
  readonly perCell: number;
  readonly reseedEvery: number;
  /** Escaped particles found by the last correction. */
  escaped = 0;
  private seeded = false;
  private rng: number;
  private plus = new Float64Array(0);
  private minus = new Float64Array(0);
  private cellCount = new Int32Array(0);

  constructor(seed: number, perCell = 16, reseedEvery = 20) {
    this.rng = (seed * 2654435761) >>> 0 || 1;
    this.perCell = perCell;
    this.reseedEvery = reseedEvery;
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

  private random(): number {
    // mulberry32: deterministic across runs and restores of the same scene.
    let t = (this.rng = (this.rng + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private add(x: number, y: number, z: number, r: number): void {
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

  /** Stage after redistancing: first seeding, second correction, radii, periodic reseeding. */
  afterRedistance(sim: GridSimulation): void {
    const s = sim.store, d = sim.d;
    if (!this.seeded) {
      this.reseed(s, d, sim.band);
      this.seeded = true;
      return;
    }
    this.correct(s, d);
    this.setRadii(s, d);
    if (sim.steps % this.reseedEvery === 0) this.reseed(s, d, sim.band);
  }

  /** Stage after the level set moved: particles by RK2, then the first correction. */
  afterAdvection(sim: GridSimulation, dt: number): void {
    if (!this.seeded) return;
    const s = sim.store, d = sim.d, P = this.pos;
    for (let q = 0; q < this.count; q++) {
      tracePoint(s, d, P[3 * q], P[3 * q + 1], P[3 * q + 2], dt, p3);
      P[3 * q] = p3[0]; P[3 * q + 1] = p3[1]; P[3 * q + 2] = p3[2];
    }
    this.correct(s, d);
  }

  /** Error correction with the escaped particles (Enright et al. 2002, §3.3). */
  correct(s: GridStore, d: GridDomain): number {
    const n = s.count, h = d.h, o = d.origin, inv = 1 / h, band = bandOf(s);
    if (this.plus.length < n) {
      this.plus = new Float64Array(Math.ceil(n * 1.3));
      this.minus = new Float64Array(this.plus.length);
    }
    const plus = this.plus, minus = this.minus, phi = s.phi;
    plus.set(phi.subarray(0, n));
    minus.set(phi.subarray(0, n));
    const P = this.pos, R = this.radius, far = 4 * h;
    let escaped = 0, w = 0;
    for (let q = 0; q < this.count; q++) {
      const x = P[3 * q], y = P[3 * q + 1], z = P[3 * q + 2], r = R[q];
      const gx = (x - o[0]) * inv - 0.5, gy = (y - o[1]) * inv - 0.5, gz = (z - o[2]) * inv - 0.5;
      // A particle that left the band, or entered a solid, no longer knows where the surface is
      // (the liquid could sweep over it while it stood still outside the grid): drop it.
      const home = s.find(Math.floor(gx + 0.5), Math.floor(gy + 0.5), Math.floor(gz + 0.5));
      const fp = sampleAt(s, phi, gx, gy, gz, band);
      if (home < 0 || s.type[home] === SOLID || Math.abs(fp) > far) continue;
      P[3 * w] = x; P[3 * w + 1] = y; P[3 * w + 2] = z;
      R[w++] = r;
      const sign = r > 0 ? 1 : -1, ar = sign * r;
      if (sign * fp >= -ar) continue;
      escaped++;
      const i0 = Math.floor(gx), j0 = Math.floor(gy), k0 = Math.floor(gz);
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
    for (let c = 0; c < n; c++) phi[c] = Math.abs(plus[c]) <= Math.abs(minus[c]) ? plus[c] : minus[c];
    this.count = w;
    this.escaped = escaped;
    return escaped;
  }

  /** Equation 31 for the particles that have not escaped. */
  private setRadii(s: GridStore, d: GridDomain): void {
    const h = d.h, rmin = 0.1 * h, rmax = 0.5 * h, band = bandOf(s);
    for (let q = 0; q < this.count; q++) {
      const fp = this.phiAt(s, d, q, band);
      const sign = this.radius[q] > 0 ? 1 : -1;
      if (sign * fp < 0) continue; // escaped: keep its radius (it still carries sub-cell detail)
      this.radius[q] = sign * Math.min(rmax, Math.max(rmin, Math.abs(fp)));
    }
  }

  private phiAt(s: GridStore, d: GridDomain, q: number, band: number): number {
    const inv = 1 / d.h, o = d.origin, P = this.pos;
    return sampleAt(s, s.phi, (P[3 * q] - o[0]) * inv - 0.5, (P[3 * q + 1] - o[1]) * inv - 0.5, (P[3 * q + 2] - o[2]) * inv - 0.5, band);
  }

  /** Drops particles far from the surface; fills cells near it up to perCell. */
  reseed(s: GridStore, d: GridDomain, band: number): void {
    const h = d.h, o = d.origin, inv = 1 / h;
    const bandMax = Math.min(3 * h, band - h), rmin = 0.1 * h, rmax = 0.5 * h;
    if (this.cellCount.length < s.count) this.cellCount = new Int32Array(Math.ceil(s.count * 1.3));
    const cnt = this.cellCount;
    cnt.fill(0, 0, s.count);
    let w = 0;
    const P = this.pos, R = this.radius;
    for (let q = 0; q < this.count; q++) {
      const x = P[3 * q], y = P[3 * q + 1], z = P[3 * q + 2];
      const fp = sampleAt(s, s.phi, (x - o[0]) * inv - 0.5, (y - o[1]) * inv - 0.5, (z - o[2]) * inv - 0.5, band);
      const sign = R[q] > 0 ? 1 : -1;
      if (Math.abs(fp) > bandMax || sign * fp < -Math.abs(R[q])) continue;
      const c = s.find(Math.floor((x - o[0]) * inv), Math.floor((y - o[1]) * inv), Math.floor((z - o[2]) * inv));
      if (c < 0 || s.type[c] === SOLID || cnt[c] >= 2 * this.perCell) continue;
      cnt[c]++;
      P[3 * w] = x; P[3 * w + 1] = y; P[3 * w + 2] = z;
      R[w++] = R[q];
    }
    this.count = w;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID || Math.abs(s.phi[c]) > bandMax + 0.87 * h) continue;
      for (let tries = 0; cnt[c] < this.perCell && tries < 2 * this.perCell; tries++) {
        let x = o[0] + h * (s.ci[c] + this.random()), y = o[1] + h * (s.cj[c] + this.random()), z = o[2] + h * (s.ck[c] + this.random());
        let fp = sampleAt(s, s.phi, (x - o[0]) * inv - 0.5, (y - o[1]) * inv - 0.5, (z - o[2]) * inv - 0.5, band);
        const sign = tries % 2 === 0 ? -1 : 1; // alternate sides so both get particles
        const goal = sign * (rmin + this.random() * (bandMax - rmin));
        for (let it = 0; it < 3 && Math.abs(fp - goal) > 0.05 * h; it++) {
          gradient(s, d, x, y, z, band, p3);
          const gl = Math.hypot(p3[0], p3[1], p3[2]);
          if (!(gl > 1e-9)) break;
          const step = ((goal - fp) * h) / gl; // gl is the change of φ over one cell
          x += step * p3[0] / gl; y += step * p3[1] / gl; z += step * p3[2] / gl;
          fp = sampleAt(s, s.phi, (x - o[0]) * inv - 0.5, (y - o[1]) * inv - 0.5, (z - o[2]) * inv - 0.5, band);
        }
        if (sign * fp < rmin || Math.abs(fp) > bandMax) continue;
        this.add(x, y, z, sign * Math.min(rmax, Math.max(rmin, Math.abs(fp))));
        cnt[c]++;
      }
    }
  }
}

function bandOf(s: GridStore): number {
  let m = 0;
  for (let c = 0; c < s.count; c++) if (s.phi[c] > m) m = s.phi[c];
  return m;
}

/** ∇φ at a point by central differences of the interpolated φ (h/2 apart). */
function gradient(s: GridStore, d: GridDomain, x: number, y: number, z: number, band: number, out: Float64Array): void {
  const inv = 1 / d.h, o = d.origin, e = 0.5;
  const gx = (x - o[0]) * inv - 0.5, gy = (y - o[1]) * inv - 0.5, gz = (z - o[2]) * inv - 0.5;
  out[0] = sampleAt(s, s.phi, gx + e, gy, gz, band) - sampleAt(s, s.phi, gx - e, gy, gz, band);
  out[1] = sampleAt(s, s.phi, gx, gy + e, gz, band) - sampleAt(s, s.phi, gx, gy - e, gz, band);
  out[2] = sampleAt(s, s.phi, gx, gy, gz + e, band) - sampleAt(s, s.phi, gx, gy, gz - e, band);
}

/** The level set with the particles' stages: correction after redistancing and after moving. */
export class ParticleLevelSetTracker extends LevelSetTracker {
  override readonly name: string = 'particle-levelset';
  readonly particles: ParticleLevelSet;

  constructor(scene: Scene) {
    super(scene);
    const pls = (this.particles = new ParticleLevelSet(scene.seed));
    const correct: Stage = {
      name: 'pls-correct',
      run(sim) {
        pls.afterRedistance(sim);
        sim.count('plsParticles', pls.count);
        sim.count('plsEscaped', pls.escaped);
      },
    };
    this.afterGrid.push(correct);
    this.afterMove.push({ name: 'pls-advect', run: (sim, dt) => pls.afterAdvection(sim, dt) });
  }

  override save(w: CheckpointWriter): void {
    this.particles.save(w);
  }

  override restore(_sim: GridSimulation, r: CheckpointReader): void {
    if (r.has('ext.plsPos')) this.particles.restore(r);
  }
}

registerTracker({ name: 'particle-levelset', create: (scene) => new ParticleLevelSetTracker(scene) });
