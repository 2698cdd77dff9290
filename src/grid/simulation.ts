/**
 * The public `Simulation` of the grid engine: the tracker's points as fluid points, MAC-interpolated
 * velocities, the tracker's surface, metrics, solids and bit-for-bit checkpoints (checkpoint.ts).
 */
import { linearColor } from '../scene/color.ts';
import type { FluidPoints, Mesh, Metrics, Simulation, SimulationOptions, SolidView, StepStats } from '../api.ts';
import type { Vec3 } from '../scene/schema.ts';
import type { Scene } from '../scene/scene.ts';
import type { CheckpointReader } from '../io/checkpoint.ts';
import { heldBytes } from '../engines.ts';
import { poseToMat4 } from '../scene/motion.ts';
import { meshSurfaceJob, type SurfaceJob } from '../surface/index.ts';
import { restoreGrid, saveGrid } from './checkpoint.ts';
import { extensionFluidPoints } from './extensions.ts';
import { velocityAtPoint } from './interpolate.ts';
import { GridSimulation } from './step.ts';
import { FLUID, SOLID } from './store.ts';
import { shapeMesh } from '../scene/triangulate.ts';

const v3 = new Float64Array(3);

export class GridEngineSimulation implements Simulation {
  readonly engine = 'grid' as const;
  readonly sim: GridSimulation;
  private solidMeshes: Mesh[] | null = null;

  /** `options.workers` > 1 (with a spawner): the grid's passes that split run on a thread team (threads.ts). */
  constructor(readonly scene: Scene, checkpoint?: CheckpointReader, options: SimulationOptions = {}) {
    this.sim = new GridSimulation(scene, options);
    if (checkpoint) restoreGrid(this.sim, checkpoint);
    else this.sim.initialize();
  }

  get time(): number {
    return this.sim.time;
  }

  get frame(): number {
    return this.sim.frame;
  }

  private disposed = false;

  stepFrame(): StepStats {
    if (this.disposed) throw new Error('stepFrame: this simulation was disposed; create or restore a new one');
    const stats = this.sim.stepFrame();
    stats.counters.threads = this.sim.runner.size;
    return stats;
  }

  /** Resolves once the thread team's threads have loaded (at once on one thread). */
  ready(): Promise<void> {
    return this.sim.runner.team?.ready() ?? Promise.resolve();
  }

  fluidPoints(): FluidPoints {
    const m = this.sim.markers, s = this.sim.store, d = this.sim.d;
    const positions = new Float32Array(3 * m.count), velocities = new Float32Array(3 * m.count);
    for (let q = 0; q < m.count; q++) {
      const x = m.pos[3 * q], y = m.pos[3 * q + 1], z = m.pos[3 * q + 2];
      positions[3 * q] = x; positions[3 * q + 1] = y; positions[3 * q + 2] = z;
      velocityAtPoint(s, d, x, y, z, v3);
      velocities[3 * q] = v3[0]; velocities[3 * q + 1] = v3[1]; velocities[3 * q + 2] = v3[2];
    }
    return extensionFluidPoints(this.sim, { count: m.count, positions, velocities, materials: m.material.slice(0, m.count) });
  }

  velocityAt(p: ArrayLike<number>): Vec3 {
    velocityAtPoint(this.sim.store, this.sim.d, p[0], p[1], p[2], v3);
    return [v3[0], v3[1], v3[2]];
  }

  surfaceMesh(): Mesh {
    return meshSurfaceJob(this.surfaceJob());
  }

  /**
   * The tracker's surface (φ on the grid's cells, or a height field's mesh) in the liquid's colour,
   * or, where several liquids are tracked, in the colours of the liquids near each vertex.
   */
  surfaceJob(): SurfaceJob {
    const color = linearColor(this.sim.liquid?.color ?? '#d9a21b');
    const job = this.sim.tracker.surfaceJob(this.sim, color);
    const liquids = this.sim.ext.liquids;
    return liquids && job.kind !== 'particles' ? { ...job, tint: liquids.tint(this.sim), color } : job;
  }

  metrics(): Metrics {
    const sim = this.sim, s = sim.store, d = sim.d, h = d.h;
    const rho = sim.liquid?.density ?? 1000;
    let mass = 0, ke = 0, maxSpeed = 0, cells = 0;
    const com: Vec3 = [0, 0, 0], mom: Vec3 = [0, 0, 0];
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    // The mass in each cell: the liquid the tracker holds there where it can say (markers: their
    // volume in the cell, so a cell a marker layer half fills weighs half, as the drawn surface
    // does), else its fraction of the cell. The bounds stay those of the cells it counts as liquid.
    // Smoke (every box cell simulated air, no markers) keeps the cells' weight.
    let fractions: Float64Array | null = null;
    if (sim.tracker.liquidFractions && !sim.ext.smoke) sim.tracker.liquidFractions(sim, (fractions = new Float64Array(s.count)));
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === FLUID) cells++;
      // Every cell holding liquid, by the tracker's fraction (a level set's surface cuts air cells too).
      const inside = s.type[c] === SOLID ? 0 : sim.tracker.cellFraction(s, c, h);
      const w = s.type[c] === SOLID ? 0 : fractions ? fractions[c] : inside;
      if (w <= 1e-9 && inside <= 1e-9) continue;
      const mc = rho * h * h * h * w;
      const x = [d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5)];
      let speed2 = 0;
      for (let a = 0; a < 3; a++) {
        const up = s.nb[6 * c + 2 * a + 1];
        const v = 0.5 * (s.u[a][c] + (up >= 0 ? s.u[a][up] : s.u[a][c]));
        mom[a] += mc * v;
        com[a] += mc * x[a];
        speed2 += v * v;
        if (inside <= 1e-9) continue;
        min[a] = Math.min(min[a], x[a] - 0.5 * h);
        max[a] = Math.max(max[a], x[a] + 0.5 * h);
      }
      mass += mc;
      ke += 0.5 * mc * speed2;
      if (inside > 1e-9) maxSpeed = Math.max(maxSpeed, Math.sqrt(speed2));
    }
    if (mass > 0) for (let a = 0; a < 3; a++) com[a] /= mass;
    if (cells === 0) { min.fill(0); max.fill(0); }
    const fluidVolume = sim.tracker.volume(sim);
    const m: Metrics = { fluidVolume, centerOfMass: com, kineticEnergy: ke, momentum: mom, maxSpeed, bounds: { min, max }, pointCount: sim.markers.count, cellCount: cells, memoryBytes: heldBytes(this, [this.scene]) };
    // Smoke fills the box: it has no liquid volume to account for.
    if (sim.ext.smoke) return m;
    const expected = sim.tracker.expectedVolume(sim);
    m.volumeExpected = expected;
    // Below a millionth of a cell nothing is expected (all of it has gone through the sinks).
    m.volumeChange = expected > 1e-6 * h * h * h ? fluidVolume / expected - 1 : 0;
    m.liquidGone = fluidVolume <= 1e-6 * h * h * h;
    return m;
  }

  solids(): SolidView[] {
    const list = this.sim.solids.list;
    // The solid bodies in scene order, as GridSolids lists them.
    this.solidMeshes ??= this.scene.bodies
      .filter((b) => this.scene.materials[b.material].kind === 'solid')
      .map((b) => shapeMesh(b.shape, this.scene.assets.meshes));
    this.sim.solids.setTime(this.sim.time);
    return list.map((b, i) => ({
      name: b.name,
      color: linearColor(this.scene.materials[b.material].color),
      mesh: this.solidMeshes![i],
      transform: poseToMat4(b.pose),
    }));
  }

  save(): Uint8Array {
    return saveGrid(this.sim, this.scene);
  }

  dispose(): void {
    this.disposed = true;
    this.sim.runner.team?.dispose();
  }
}
