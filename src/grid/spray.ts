/**
 * Spray (Foster & Metaxas 1996 §4.3), enabled by `grid.spray`: wherever the liquid surface rises
 * faster than `threshold`, particles are introduced just below the surface with the local liquid
 * velocity; from then on they leave the Navier–Stokes calculation and feel only gravity and air
 * resistance (rate `drag`). A particle is removed when it falls back into the liquid (φ < 0 after
 * it has been out), leaves the domain box or outlives `lifetime`.
 * Surface cells are liquid cells with an air cell above (the level set's or the markers' cells).
 */
import { velocityAtPoint } from './interpolate.ts';
import { AIR, FLUID } from './store.ts';
import type { GridSimulation } from './step.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';

export interface SprayParams {
  threshold: number;
  perCell: number;
  drag: number;
  lifetime: number;
}

const v3 = new Float64Array(3);

export class Spray {
  count = 0;
  pos = new Float64Array(3 * 1024);
  vel = new Float64Array(3 * 1024);
  age = new Float64Array(1024);
  /** 1 once the particle has been outside the liquid. */
  out = new Uint8Array(1024);
  private rng: number;

  constructor(readonly params: SprayParams, seed: number) {
    this.rng = (seed * 747796405 + 2891336453) >>> 0 || 1;
  }

  save(w: CheckpointWriter): void {
    const n = this.count;
    w.array('ext.sprayPos', this.pos.slice(0, 3 * n)).array('ext.sprayVel', this.vel.slice(0, 3 * n));
    w.array('ext.sprayAge', this.age.slice(0, n)).array('ext.sprayOut', this.out.slice(0, n)).scalar('ext.sprayRng', this.rng);
  }

  restore(r: CheckpointReader): void {
    const pos = r.array('ext.sprayPos', Float64Array), vel = r.array('ext.sprayVel', Float64Array);
    const age = r.array('ext.sprayAge', Float64Array), out = r.array('ext.sprayOut', Uint8Array);
    this.count = 0;
    for (let q = 0; q < age.length; q++) {
      this.add(pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], vel[3 * q], vel[3 * q + 1], vel[3 * q + 2]);
      this.age[q] = age[q];
      this.out[q] = out[q];
    }
    this.rng = r.scalar('ext.sprayRng');
  }

  private random(): number {
    let t = (this.rng = (this.rng + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private add(x: number, y: number, z: number, vx: number, vy: number, vz: number): void {
    if (this.count === this.age.length) {
      const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(2 * a.length);
        b.set(a);
        return b;
      };
      this.pos = grow(this.pos);
      this.vel = grow(this.vel);
      this.age = grow(this.age);
      this.out = grow(this.out);
    }
    const i = this.count++;
    this.pos[3 * i] = x; this.pos[3 * i + 1] = y; this.pos[3 * i + 2] = z;
    this.vel[3 * i] = vx; this.vel[3 * i + 1] = vy; this.vel[3 * i + 2] = vz;
    this.age[i] = 0;
    this.out[i] = 0;
  }

  step(sim: GridSimulation, dt: number): void {
    const s = sim.store, d = sim.d, h = d.h, o = d.origin, g = sim.scene.gravity;
    const { threshold, perCell, drag, lifetime } = this.params;
    // Move and retire the airborne particles.
    const fade = Math.exp(-drag * dt);
    let w = 0;
    for (let q = 0; q < this.count; q++) {
      let vx = this.vel[3 * q], vy = this.vel[3 * q + 1], vz = this.vel[3 * q + 2];
      vx = (vx + dt * g[0]) * fade; vy = (vy + dt * g[1]) * fade; vz = (vz + dt * g[2]) * fade;
      const x = this.pos[3 * q] + dt * vx, y = this.pos[3 * q + 1] + dt * vy, z = this.pos[3 * q + 2] + dt * vz;
      const age = this.age[q] + dt;
      const inLiquid = sim.tracker.inLiquid(sim, x, y, z);
      let outside = this.out[q];
      if (!inLiquid) outside = 1;
      const inBox = x >= o[0] && y >= o[1] && z >= o[2] && x <= o[0] + h * d.n[0] && y <= o[1] + h * d.n[1] && z <= o[2] + h * d.n[2];
      if (age > lifetime || !inBox || (outside && inLiquid) || (!outside && age > 0.25)) continue;
      this.pos[3 * w] = x; this.pos[3 * w + 1] = y; this.pos[3 * w + 2] = z;
      this.vel[3 * w] = vx; this.vel[3 * w + 1] = vy; this.vel[3 * w + 2] = vz;
      this.age[w] = age;
      this.out[w++] = outside;
    }
    this.count = w;
    // Emit from fast-rising surface cells.
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID) continue;
      const up = s.nb[6 * c + 3];
      if (up < 0 || s.type[up] !== AIR) continue;
      const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
      velocityAtPoint(s, d, x, y, z, v3);
      if (v3[1] <= threshold) continue;
      for (let p = 0; p < perCell; p++) {
        const px = x + h * (this.random() - 0.5), pz = z + h * (this.random() - 0.5), py = y + 0.5 * h * this.random();
        velocityAtPoint(s, d, px, py, pz, v3);
        this.add(px, py, pz, v3[0], v3[1], v3[2]);
      }
    }
  }
}
