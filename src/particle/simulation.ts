/**
 * The particle engine's `Simulation` (src/api.ts): owns a StepContext and the emitters, steps
 * frames with step.ts, and answers queries (points, velocity, metrics, solids, surface mesh,
 * checkpoints).
 */
import type { FluidPoints, Mesh, Metrics, Simulation, SimulationOptions, SolidView, StepStats } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import type { Vec3 } from '../scene/schema.ts';
import { heldBytes, startCheckpoint } from '../engines.ts';
import type { CheckpointReader } from '../io/checkpoint.ts';

/** Most liquid particles a checkpoint may hold: positions are one Float64Array of 3n (2^31 − 1 elements at most). */
const MAX_RESTORED_PARTICLES = Math.floor((2 ** 31 - 1) / 3);
import { poseToMat4 } from '../scene/motion.ts';
import { particleSurface, type ParticleSurfaceInput, type SurfaceJob } from '../surface/index.ts';
import { gaussLike2 } from '../math/kernels.ts';
import { StepContext } from './context.ts';
import { Emitters } from './emit.ts';
import { settleStart, type SettleReport } from './start-settle.ts';
import { linearColor } from '../scene/color.ts';
import { MAX_SUBDIVISION, stepFrame } from './step.ts';
import { checkGelStep } from './gel.ts';
import { CellPairs } from './neighbours.ts';
import { shapeMesh } from '../scene/triangulate.ts';
import { restoreSprings, saveSprings } from './gel-checkpoint.ts';
import { restoreChannels, saveChannels } from './channels.ts';
import { restoreWarmStart } from './viscosity-weiler.ts';
import { restoreStillWater, stillWaterOf } from './still-water.ts';
import { sharedMemoryAvailable, ThreadTeam } from '../parallel/team.ts';
import { JobRunner } from '../parallel/run-job.ts';
import { PARTICLE_JOBS } from './jobs.ts';

/**
 * A thread team for `workers` > 1 when the platform gave a spawner and memory can be shared: the
 * liquid arrays and the pair list move onto SharedArrayBuffers, and stages with a parallel kernel
 * (viscosity) use the team. Otherwise null (one thread, today's code path).
 */
function startTeam(ctx: StepContext, options: SimulationOptions): ThreadTeam | null {
  const workers = options.workers ?? ctx.scene.particle.workers;
  if (workers <= 1 || !options.spawnThread || !sharedMemoryAvailable().ok) return null;
  const team = new ThreadTeam(workers, options.spawnThread, PARTICLE_JOBS);
  ctx.liquid.share();
  ctx.objects.share();
  ctx.cells.pairs.shared = true;
  ctx.cells.share();
  ctx.densityCells.share();
  ctx.objectCells.share();
  ctx.contacts.shared = true;
  ctx.runner = new JobRunner(team, PARTICLE_JOBS);
  ctx.shared = true;
  return team;
}

export class ParticleSimulation implements Simulation {
  readonly engine = 'particle' as const;
  readonly ctx: StepContext;
  readonly emitters: Emitters;
  /** How the settles before frame 0 went, one per liquid body settled (start-settle.ts; empty where none was). */
  readonly settles: SettleReport[] = [];
  private queryCells: CellPairs;
  private queryDirty = true;
  private solidMeshes: Mesh[] | null = null;
  /** Worker threads of particle.workers / options.workers (null: one thread). */
  private readonly team: ThreadTeam | null;

  constructor(
    readonly scene: Scene,
    readonly options: SimulationOptions = {},
    restoreFrom?: CheckpointReader,
  ) {
    this.ctx = new StepContext(scene);
    checkGelStep(this.ctx.gel, scene, MAX_SUBDIVISION);
    this.team = startTeam(this.ctx, options);
    this.emitters = new Emitters(scene, (sc, body, pos, clearance, pool, displace) => settleStart(sc, body, pos, clearance, pool, (s) => new ParticleSimulation(s, { workers: 1 }), this.settles, displace));
    this.ctx.wallClearance.set(this.emitters.clearance);
    this.ctx.restSpacing = this.emitters.spacing;
    this.queryCells = new CellPairs(this.ctx.reach);
    if (restoreFrom) {
      // Every value is validated as input (io/checkpoint.ts): counts against the arrays' lengths.
      const ctx = this.ctx, L = ctx.liquid, r = restoreFrom;
      ctx.frame = r.index('frame');
      ctx.time = r.finite('time', 0);
      const n = r.index('count', 0, MAX_RESTORED_PARTICLES);
      const pos = r.finiteArray('pos', Float64Array, 3 * n), vel = r.finiteArray('vel', Float64Array, 3 * n);
      const material = r.indices('material', Uint16Array, n, 0, Math.max(0, scene.materialNames.length - 1));
      const density = r.array('density', Float32Array, n);
      L.reserve(n);
      L.count = n;
      L.pos.set(pos);
      L.vel.set(vel);
      L.material.set(material);
      L.density.set(density);
      if (r.has('lambda')) L.lambda.set(r.array('lambda', Float64Array, n));
      if (r.has('id')) {
        L.id.set(r.indices('id', Int32Array, n, 0, 2 ** 31 - 2));
        L.nextId = r.index('nextId');
      }
      restoreChannels(L.channels, n, L.material, r);
      ctx.mixing?.restoreLegacy(r, n);
      ctx.temperature?.restoreLegacy(r, L);
      if (ctx.gel) restoreSprings(ctx.gel, r, L.id, n, L.nextId);
      restoreWarmStart(ctx, r);
      if (ctx.freeBodies) ctx.freeBodies.restore(r.finiteArray('freeBodies', Float64Array, ctx.freeBodies.state.length));
      this.emitters.restore(r.array('emitters', Float64Array, this.emitters.state().length));
      ctx.densityError = r.finite('densityError');
      // A checkpoint from before the still-water state: moving (it is found again at the first solve).
      if (r.has('stillWater')) restoreStillWater(ctx, r.index('stillWater', 0, 1) === 1);
    } else {
      this.emitters.apply(this.ctx, 0, 0);
      this.ctx.liquid.density.fill(1);
    }
    this.ctx.objects.moveTo(this.ctx.time, this.ctx.time);
  }

  get time(): number {
    return this.ctx.time;
  }

  get frame(): number {
    return this.ctx.frame;
  }

  private disposed = false;

  /**
   * The liquid's particles were moved from outside the step (a copy of another backend's frame,
   * src/gpu/mirror.ts): point queries (velocityAt) rebuild their cells before the next answer.
   */
  particlesMoved(): void {
    this.queryDirty = true;
  }

  stepFrame(): StepStats {
    if (this.disposed) throw new Error('stepFrame: this simulation was disposed; create or restore a new one');
    this.queryDirty = true;
    const stats = stepFrame(this.ctx, this.emitters);
    stats.counters.threads = this.team?.size ?? 1;
    return stats;
  }

  ready(): Promise<void> {
    return this.team ? this.team.ready() : Promise.resolve();
  }

  fluidPoints(): FluidPoints {
    const L = this.ctx.liquid, n = L.count;
    return {
      count: n,
      positions: Float32Array.from(L.pos.subarray(0, 3 * n)),
      velocities: Float32Array.from(L.vel.subarray(0, 3 * n)),
      materials: L.material.slice(0, n),
      densities: L.density.slice(0, n),
      surface: L.surface.slice(0, n),
    };
  }

  velocityAt(p: ArrayLike<number>): Vec3 {
    const ctx = this.ctx, L = ctx.liquid;
    if (this.queryDirty) {
      this.queryCells.build(L.pos, L.count);
      this.queryDirty = false;
    }
    const g = this.queryCells.grid, h = ctx.reach, inv2 = 1 / (h * h);
    const R = this.queryCells.reach;
    const cells = new Int32Array((2 * R + 1) ** 3);
    const m = g.cellsNear(p[0], p[1], p[2], cells, R);
    let sw = 0, vx = 0, vy = 0, vz = 0;
    for (let q = 0; q < m; q++) {
      const c = cells[q];
      for (let s = g.start[c]; s < g.start[c] + g.count[c]; s++) {
        const i = g.order[s];
        const dx = L.pos[3 * i] - p[0], dy = L.pos[3 * i + 1] - p[1], dz = L.pos[3 * i + 2] - p[2];
        const w = gaussLike2(dx * dx + dy * dy + dz * dz, inv2);
        if (w === 0) continue;
        sw += w;
        vx += w * L.vel[3 * i]; vy += w * L.vel[3 * i + 1]; vz += w * L.vel[3 * i + 2];
      }
    }
    return sw > 0 ? [vx / sw, vy / sw, vz / sw] : [0, 0, 0];
  }

  surfaceMesh(): Mesh {
    return particleSurface(this.surfaceInput(false), this.scene.output);
  }

  surfaceJob(): SurfaceJob {
    return { kind: 'particles', input: this.surfaceInput(true), output: this.scene.output };
  }

  /** particleSurface's input: positions copied (`own`) or a view of the live ones. */
  private surfaceInput(own: boolean): ParticleSurfaceInput {
    const L = this.ctx.liquid, n = L.count;
    let colors: Float32Array;
    if (this.ctx.mixing) colors = this.ctx.mixing.particleColours(n);
    else {
      colors = new Float32Array(3 * n);
      const palette = this.scene.materialNames.map((name) => linearColor(this.scene.materials[name].color));
      for (let i = 0; i < n; i++) colors.set(palette[L.material[i]], 3 * i);
    }
    const positions = own ? L.pos.slice(0, 3 * n) : L.pos.subarray(0, 3 * n);
    return { count: n, positions, radius: this.ctx.r, colors, surface: L.surface.slice(0, n), normals: L.normal.slice(0, 3 * n) };
  }

  metrics(): Metrics {
    const ctx = this.ctx, L = ctx.liquid, n = L.count;
    let m = 0, cx = 0, cy = 0, cz = 0, px = 0, py = 0, pz = 0, ke = 0, vmax2 = 0;
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      const mi = ctx.mass[L.material[i]];
      const o = 3 * i;
      const x = L.pos[o], y = L.pos[o + 1], z = L.pos[o + 2];
      const vx = L.vel[o], vy = L.vel[o + 1], vz = L.vel[o + 2];
      m += mi;
      cx += mi * x; cy += mi * y; cz += mi * z;
      px += mi * vx; py += mi * vy; pz += mi * vz;
      const v2 = vx * vx + vy * vy + vz * vz;
      ke += 0.5 * mi * v2;
      if (v2 > vmax2) vmax2 = v2;
      if (x < min[0]) min[0] = x; if (y < min[1]) min[1] = y; if (z < min[2]) min[2] = z;
      if (x > max[0]) max[0] = x; if (y > max[1]) max[1] = y; if (z > max[2]) max[2] = z;
    }
    return {
      fluidVolume: n * (2 * ctx.r) ** 3,
      centerOfMass: m > 0 ? [cx / m, cy / m, cz / m] : [0, 0, 0],
      kineticEnergy: ke,
      momentum: [px, py, pz],
      maxSpeed: Math.sqrt(vmax2),
      bounds: n > 0 ? { min, max } : { min: [0, 0, 0], max: [0, 0, 0] },
      densityError: ctx.densityError,
      pointCount: n,
      memoryBytes: heldBytes(this, [this.scene]),
    };
  }

  solids(): SolidView[] {
    const O = this.ctx.objects;
    this.solidMeshes ??= O.bodies.map((b) => shapeMesh(b.shape, this.scene.assets.meshes));
    return O.bodies.map((b, k) => ({
      name: b.name,
      color: linearColor(this.scene.materials[this.scene.materialNames[b.material]].color),
      mesh: this.solidMeshes![k],
      transform: poseToMat4(b.pose),
    }));
  }

  save(): Uint8Array {
    const ctx = this.ctx, L = ctx.liquid, n = L.count;
    const w = startCheckpoint('particle', this.scene)
      .scalar('frame', ctx.frame)
      .scalar('time', ctx.time)
      .scalar('count', n)
      .scalar('densityError', ctx.densityError)
      .scalar('stillWater', stillWaterOf(ctx) ? 1 : 0)
      .array('pos', L.pos.slice(0, 3 * n))
      .array('vel', L.vel.slice(0, 3 * n))
      .array('material', L.material.slice(0, n))
      .array('density', L.density.slice(0, n))
      .array('lambda', L.lambda.slice(0, n))
      .array('id', L.id.slice(0, n))
      .scalar('nextId', L.nextId)
      .array('emitters', this.emitters.state());
    saveChannels(L.channels, n, w);
    if (ctx.gel) saveSprings(ctx.gel, w, L.id, n);
    if (ctx.freeBodies) w.array('freeBodies', ctx.freeBodies.state.slice());
    return w.finish();
  }

  dispose(): void {
    this.disposed = true;
    this.team?.dispose();
  }
}
