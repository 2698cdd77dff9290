import type { EngineName, FluidPoints, Mesh, Metrics, Scene, Simulation, SolidView, StepStats, Vec3 } from '../../src/index.ts';
/**
 * A test double: a Simulation that plays back recorded point arrays, one set per frame, so that the
 * metrics, report and compare code can be tested without either engine. Tests only.
 */

export interface Recording {
  /** xyz per point, one array per frame (frame 0 = initial state). */
  positions: Float32Array[];
  velocities: Float32Array[];
  /** Liquid volume per frame, m³. */
  volumes: number[];
}

export class RecordedSimulation implements Simulation {
  frame = 0;
  disposed = false;
  constructor(
    readonly engine: EngineName,
    readonly scene: Scene,
    private readonly rec: Recording,
    /** Frame at which stepFrame throws, to test early stops. */
    private readonly failAt = Infinity,
  ) {}
  get time(): number {
    return this.frame / this.scene.fps;
  }
  stepFrame(): StepStats {
    if (this.frame + 1 >= this.failAt) throw new Error(`blew up at frame ${this.frame + 1}`);
    if (this.frame + 1 >= this.rec.positions.length) throw new Error('recording exhausted');
    this.frame++;
    return { frame: this.frame, time: this.time, wallMs: 3 + this.frame, stages: { forces: 1, move: 2 + this.frame }, counters: { substeps: 4 } };
  }
  fluidPoints(): FluidPoints {
    const positions = this.rec.positions[this.frame];
    const count = positions.length / 3;
    return { count, positions, velocities: this.rec.velocities[this.frame], materials: new Uint16Array(count) };
  }
  velocityAt(): Vec3 {
    return [0, 0, 0];
  }
  surfaceMesh(): Mesh {
    return { positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0) };
  }
  metrics(): Metrics {
    const p = this.fluidPoints();
    const vol = this.rec.volumes[this.frame];
    const m = (vol * 1000) / p.count;
    const c: Vec3 = [0, 0, 0], mom: Vec3 = [0, 0, 0];
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    let ke = 0, vmax = 0;
    for (let i = 0; i < p.count; i++) {
      let s2 = 0;
      for (let k = 0; k < 3; k++) {
        const x = p.positions[3 * i + k], v = p.velocities[3 * i + k];
        c[k] += x / p.count;
        mom[k] += m * v;
        min[k] = Math.min(min[k], x);
        max[k] = Math.max(max[k], x);
        s2 += v * v;
      }
      ke += 0.5 * m * s2;
      vmax = Math.max(vmax, Math.sqrt(s2));
    }
    return { fluidVolume: vol, centerOfMass: c, kineticEnergy: ke, momentum: mom, maxSpeed: vmax, bounds: { min, max }, pointCount: p.count };
  }
  solids(): SolidView[] {
    return [];
  }
  save(): Uint8Array {
    return new Uint8Array(0);
  }
  dispose(): void {
    this.disposed = true;
  }
}

/** A lattice block of n³ points of spacing s falling from rest under gravity g, with a front moving at speed c along x. */
export function fallingBlock(n: number, s: number, frames: number, fps: number, g = 9.81, c = 0): Recording {
  const rec: Recording = { positions: [], velocities: [], volumes: [] };
  for (let f = 0; f <= frames; f++) {
    const t = f / fps;
    const p = new Float32Array(3 * n * n * n), v = new Float32Array(3 * n * n * n);
    let q = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) {
      // The leading column (i = n − 1) stretches ahead at speed c: a moving front.
      p[3 * q] = i * s + (i === n - 1 ? c * t : 0);
      p[3 * q + 1] = 1 + j * s - 0.5 * g * t * t;
      p[3 * q + 2] = k * s;
      v[3 * q] = i === n - 1 ? c : 0;
      v[3 * q + 1] = -g * t;
      q++;
    }
    rec.positions.push(p);
    rec.velocities.push(v);
    rec.volumes.push(n * n * n * s * s * s * (1 - 0.001 * f));
  }
  return rec;
}
