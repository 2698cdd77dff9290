/**
 * The public `Simulation` of the grid engine: markers as fluid points, MAC-interpolated velocities,
 * the level-set mesh, metrics, solids and bit-for-bit checkpoints.
 */
import { linearColor } from '../scene/color.ts';
import type { FluidPoints, Mesh, Metrics, Simulation, SolidView, StepStats } from '../api.ts';
import type { Vec3 } from '../scene/schema.ts';
import type { Scene } from '../scene/scene.ts';
import type { CheckpointReader } from '../io/checkpoint.ts';
import { heldBytes, startCheckpoint } from '../engines.ts';
import { poseToMat4 } from '../scene/motion.ts';
import { HashGrid } from '../spatial/hash-grid.ts';
import { meshSurfaceJob, type SurfaceJob } from '../surface/index.ts';
import { velocityAtPoint } from './interpolate.ts';
import { levelSetVolume } from './levelset.ts';
import { GridSimulation } from './step.ts';
import { extensionFluidPoints, extensionSurface, restoreExtensions, saveExtensions } from './extensions.ts';
import { FLUID, GridStore, SOLID } from './store.ts';
import { shapeMesh } from '../scene/triangulate.ts';
import { classifyFaces } from './update-grid.ts';

const v3 = new Float64Array(3);

export class GridEngineSimulation implements Simulation {
  readonly engine = 'grid' as const;
  readonly sim: GridSimulation;
  private solidMeshes: Mesh[] | null = null;

  constructor(readonly scene: Scene, checkpoint?: CheckpointReader) {
    this.sim = new GridSimulation(scene);
    if (checkpoint) restoreState(this.sim, checkpoint);
    else this.sim.initialize();
  }

  get time(): number {
    return this.sim.time;
  }

  get frame(): number {
    return this.sim.frame;
  }

  stepFrame(): StepStats {
    return this.sim.stepFrame();
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
   * φ (level set, or the distance to the markers minus their radius) sampled on a dense box, and
   * the liquid's colour; a height field's mesh where an extension draws one.
   */
  surfaceJob(): SurfaceJob {
    const sim = this.sim, s = sim.store, d = sim.d, h = d.h;
    const heightField = extensionSurface(sim, linearColor(sim.liquid?.color ?? '#d9a21b'));
    if (heightField) return { kind: 'mesh', mesh: heightField };
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let c = 0; c < s.count; c++) {
      const ijk = [s.ci[c], s.cj[c], s.ck[c]];
      for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], ijk[a]); hi[a] = Math.max(hi[a], ijk[a]); }
    }
    if (lo[0] === Infinity) return { kind: 'mesh', mesh: { positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0) } };
    // The polygonizer needs two samples along each axis: a box one cell thick gets a second (outside).
    for (let a = 0; a < 3; a++) hi[a] = Math.max(hi[a], lo[a] + 1);
    const dims: [number, number, number] = [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1];
    const phi = new Float64Array(dims[0] * dims[1] * dims[2]).fill(sim.band);
    const index = (c: number) => s.ci[c] - lo[0] + dims[0] * (s.cj[c] - lo[1] + dims[1] * (s.ck[c] - lo[2]));
    if (sim.useLevelSet) {
      for (let c = 0; c < s.count; c++) phi[index(c)] = s.phi[c];
    } else {
      const m = sim.markers;
      const spacing = h / Math.max(1, Math.round(Math.cbrt(sim.scene.grid.markersPerCell)));
      const radius = 0.5 * h + 0.5 * spacing;
      const grid = new HashGrid(h);
      grid.build(m.pos, m.count);
      const near = new Int32Array(27);
      for (let c = 0; c < s.count; c++) {
        if (s.type[c] === SOLID) continue;
        const x = d.origin[0] + h * (s.ci[c] + 0.5), y = d.origin[1] + h * (s.cj[c] + 0.5), z = d.origin[2] + h * (s.ck[c] + 0.5);
        let best = sim.band;
        const nc = grid.cellsNear(x, y, z, near, 1);
        for (let q = 0; q < nc; q++) {
          const cell = near[q];
          for (let t = grid.start[cell]; t < grid.start[cell] + grid.count[cell]; t++) {
            const p = grid.order[t];
            const dist = Math.hypot(m.pos[3 * p] - x, m.pos[3 * p + 1] - y, m.pos[3 * p + 2] - z) - radius;
            if (dist < best) best = dist;
          }
        }
        phi[index(c)] = best;
      }
    }
    const origin: Vec3 = [d.origin[0] + h * (lo[0] + 0.5), d.origin[1] + h * (lo[1] + 0.5), d.origin[2] + h * (lo[2] + 0.5)];
    const rgb = linearColor(sim.liquid?.color ?? '#d9a21b');
    return { kind: 'levelset', input: { origin, cellSize: h, dims, phi }, color: [rgb[0], rgb[1], rgb[2]], output: this.scene.output };
  }

  metrics(): Metrics {
    const sim = this.sim, s = sim.store, d = sim.d, h = d.h;
    const rho = sim.liquid?.density ?? 1000;
    let mass = 0, ke = 0, maxSpeed = 0, cells = 0;
    const com: Vec3 = [0, 0, 0], mom: Vec3 = [0, 0, 0];
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID) continue;
      cells++;
      const w = sim.useLevelSet ? Math.min(1, Math.max(0, 0.5 - s.phi[c] / h)) : 1;
      const mc = rho * h * h * h * w;
      const x = [d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5)];
      let speed2 = 0;
      for (let a = 0; a < 3; a++) {
        const up = s.nb[6 * c + 2 * a + 1];
        const v = 0.5 * (s.u[a][c] + (up >= 0 ? s.u[a][up] : s.u[a][c]));
        mom[a] += mc * v;
        com[a] += mc * x[a];
        speed2 += v * v;
        min[a] = Math.min(min[a], x[a] - 0.5 * h);
        max[a] = Math.max(max[a], x[a] + 0.5 * h);
      }
      mass += mc;
      ke += 0.5 * mc * speed2;
      maxSpeed = Math.max(maxSpeed, Math.sqrt(speed2));
    }
    if (mass > 0) for (let a = 0; a < 3; a++) com[a] /= mass;
    if (cells === 0) { min.fill(0); max.fill(0); }
    const mpc = sim.scene.grid.markersPerCell;
    const m = Math.max(1, Math.round(Math.cbrt(mpc)));
    const fluidVolume = sim.useLevelSet ? levelSetVolume(s, h) : (sim.markers.count * h * h * h) / (m * m * m);
    return { fluidVolume, centerOfMass: com, kineticEnergy: ke, momentum: mom, maxSpeed, bounds: { min, max }, pointCount: sim.markers.count, cellCount: cells, memoryBytes: heldBytes(this, [this.scene]) };
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
    const sim = this.sim, s = sim.store, n = s.count;
    const w = startCheckpoint('grid', this.scene);
    w.scalar('time', sim.time).scalar('frame', sim.frame).scalar('steps', sim.steps).scalar('cells', n);
    w.array('ci', s.ci.slice(0, n)).array('cj', s.cj.slice(0, n)).array('ck', s.ck.slice(0, n));
    w.array('type', s.type.slice(0, n)).array('wall', s.wall.slice(0, n)).array('layer', s.layer.slice(0, n));
    for (let a = 0; a < 3; a++) {
      w.array(`u${a}`, s.u[a].slice(0, n));
      w.array(`solidVel${a}`, s.solidVel[a].slice(0, n));
    }
    w.array('phi', s.phi.slice(0, n)).array('temperature', s.temperature.slice(0, n)).array('pressure', s.pressure.slice(0, n));
    w.array('markers', sim.markers.pos.slice(0, 3 * sim.markers.count)).array('markerMaterial', sim.markers.material.slice(0, sim.markers.count));
    w.array('blobsDone', Uint8Array.from(sim.blobs.map((b) => (b.done ? 1 : 0))));
    w.array('spoutNext', Float64Array.from(sim.spouts.map((sp) => sp.next)));
    saveExtensions(sim, w);
    return w.finish();
  }

  dispose(): void {}
}

function restoreState(sim: GridSimulation, r: CheckpointReader): void {
  sim.time = r.scalar('time');
  sim.frame = r.scalar('frame');
  sim.steps = r.scalar('steps');
  const n = r.scalar('cells');
  const ci = r.array('ci', Int32Array), cj = r.array('cj', Int32Array), ck = r.array('ck', Int32Array);
  const s = new GridStore(n);
  for (let c = 0; c < n; c++) s.insert(ci[c], cj[c], ck[c]);
  s.type.set(r.array('type', Uint8Array));
  s.wall.set(r.array('wall', Uint8Array));
  s.layer.set(r.array('layer', Int32Array));
  for (let a = 0; a < 3; a++) {
    s.u[a].set(r.array(`u${a}`, Float64Array));
    s.solidVel[a].set(r.array(`solidVel${a}`, Float64Array));
  }
  s.phi.set(r.array('phi', Float64Array));
  s.temperature.set(r.array('temperature', Float64Array));
  s.pressure.set(r.array('pressure', Float64Array));
  s.linkNeighbors();
  classifyFaces(s);
  sim.store = s;
  const pos = r.array('markers', Float64Array), mat = r.array('markerMaterial', Uint16Array);
  sim.markers.count = 0;
  for (let q = 0; q < mat.length; q++) sim.markers.add(pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], mat[q]);
  const done = r.array('blobsDone', Uint8Array);
  sim.blobs.forEach((b, i) => (b.done = done[i] === 1));
  const next = r.array('spoutNext', Float64Array);
  sim.spouts.forEach((sp, i) => (sp.next = next[i]));
  restoreExtensions(sim, r);
  sim.solids.setTime(sim.time);
}

