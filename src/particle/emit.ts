/**
 * Stage "emit": liquid enters and leaves. Liquid bodies are sampled on a lattice of spacing 2r
 * (Steele §3.5), fitted to closed walls (start-packing.ts), and appear at their start time (a body with start > 0 is a blob source); spouts
 * (scene.sources) let out one particle at a time, each time the emitted column has grown by one
 * particle's volume over the face's area, (2r)³ / A, so that they emit area × speed × time: the
 * points of the face's 2r lattice and of the same lattice shifted by r, in turn, each about the
 * golden angle round the spout's axis from the last, so that the stream leaves as a loose,
 * staggered column rather than as layers (a stack of layers falls as rafts that part whole); each
 * is placed where it is at the start of the piece of sub-timestep that lets it out (the column let
 * out up to then), the piece's moves carrying it on, and a frame's end lets out what its last piece
 * let out (docs/decisions.md, emit62); and
 * they hold the liquid in their nozzle (a liquid reach below the face) at the spout's velocity, as
 * a pipe does (`hold`, called by step.ts before the forces, after viscosity and after density
 * correction), so that the stream hangs from the spout (docs/decisions.md, "Ropes that hold" and
 * "Ropes that hold: one particle at a time, not rafts"); sinks remove the liquid inside them while
 * active.
 * Liquid that has left the domain box through an open face, by more than the liquid's reach (no
 * particle inside interacts with it), is removed as the grid engine removes markers that leave
 * through an open face; an open face that looks up (against gravity) keeps what is thrown out
 * through it, since gravity brings it back. Without this a closed floor, acting as an infinite
 * plane, would carry liquid that left through an open side on along its plane.
 */
import type { Scene } from '../scene/scene.ts';
import { compileShape, perpendicularBasis, type CompiledShape } from '../scene/shapes.ts';
import { sampleVolume } from '../scene/sample.ts';
import { FACES } from '../scene/faces.ts';
import type { Vec3 } from '../scene/schema.ts';
import type { StepContext } from './context.ts';
import { bodyLattice, closestSpacing, fitBodyToWalls, latticeFits, latticeGivesWay, narrowClearance, poolFloor } from './start-packing.ts';
import { poolLevel, type PoolFloorSpec } from './pool-level.ts';
import { drawnRows, rowsToLevel } from './pool-rows.ts';
import { LATTICE_LEVEL, viscosityHoldsLattice } from './start-settle.ts';

/** Lets out the particles of a spout's column not yet let out, each where it is now: `carry` beyond the face. */
function letOut(L: StepContext['liquid'], s: Spout): void {
  const d = s.direction;
  const pts = s.points, m = pts.length / 3;
  while (s.carry >= s.step) {
    s.carry -= s.step;
    const k = s.next;
    s.next = (k + 1) % m;
    // The particle has already travelled `carry` along the direction since it left the face.
    const ox = s.center[0] + d[0] * s.carry, oy = s.center[1] + d[1] * s.carry, oz = s.center[2] + d[2] * s.carry;
    L.reserve(L.count + 1);
    L.add(ox + pts[3 * k], oy + pts[3 * k + 1], oz + pts[3 * k + 2], s.speed * d[0], s.speed * d[1], s.speed * d[2], s.material);
  }
}

/** φ², φ the golden ratio: a turn over φ² is the golden angle (137.5°). */
const GOLDEN_SQUARED = (3 + Math.sqrt(5)) / 2;

interface PendingBody {
  start: number;
  material: number;
  velocity: Vec3;
  positions: Float64Array;
  added: boolean;
}

interface Spout {
  material: number;
  start: number;
  end: number;
  speed: number;
  center: Vec3;
  direction: Vec3;
  /**
   * In-plane offsets of the points the spout lets out, xyz: the 2r lattice over the face and the
   * same lattice shifted by r along both in-plane axes (whose points sit over the hollows of the
   * first: a body-centred packing), in the order of emissionOrder. One is let
   * out at a time, in turn, so each comes back once the column has grown by two layers.
   */
  points: Float64Array;
  /** Which of `points` is let out next. */
  next: number;
  /**
   * Length of column one particle stands for, m: (2r)³ (the engine's particle volume) over the
   * face's area A, not the lattice's share of it: a coarse lattice over a small disk has more (or
   * fewer) points than A / (2r)², and a point every 2r would emit that much more (or less).
   */
  step: number;
  /** Length of the column emitted but not yet turned into a particle, m. */
  carry: number;
  /** In-plane unit axes of the face. */
  u: Vec3;
  v: Vec3;
  /** Half extents of the face along u and v, m (a disk: its radius on both, `disk` set). */
  hu: number;
  hv: number;
  disk: boolean;
}

interface Sink {
  shape: CompiledShape;
  start: number;
  end: number;
}

/** An open face that removes the liquid beyond it: axis, side (+1 upper, −1 lower), plane. */
interface Outflow {
  axis: number;
  side: number;
  plane: number;
}

/** The domain's open faces that remove liquid (all but those facing up against gravity). */
function outflowFaces(scene: Scene): Outflow[] {
  const d = scene.domain;
  if (!d || !scene.particle.walls) return [];
  const g = scene.gravity, out: Outflow[] = [];
  for (let f = 0; f < 6; f++) {
    if ((d.faces[FACES[f]] ?? d.boundary) !== 'open') continue;
    const axis = f >> 1, side = f & 1 ? 1 : -1;
    if (side * g[axis] < 0) continue; // faces up: what leaves falls back
    out.push({ axis, side, plane: side > 0 ? d.max[axis] : d.min[axis] });
  }
  return out;
}

/**
 * Points of a lattice of spacing `spacing` over a spout's face (half extents hu × hv along u and v,
 * a disk of radius hu when `disk`), shifted by `shift` along both axes, xyz; the centre alone when
 * none fits.
 */
function faceLattice(u: Vec3, v: Vec3, hu: number, hv: number, disk: boolean, spacing: number, shift: number): Float64Array {
  const pts: number[] = [];
  const au = Math.ceil((hu + shift) / spacing), av = Math.ceil((hv + shift) / spacing);
  for (let a = -au; a <= au; a++) {
    for (let b = -av; b <= av; b++) {
      const x = a * spacing + shift, y = b * spacing + shift;
      if (disk ? x * x + y * y > hu * hu : Math.abs(x) > hu || Math.abs(y) > hv) continue;
      pts.push(x * u[0] + y * v[0], x * u[1] + y * v[1], x * u[2] + y * v[2]);
    }
  }
  if (pts.length === 0) pts.push(0, 0, 0);
  return Float64Array.from(pts);
}

/**
 * The order a spout lets out the points of both lattices: sorted by their angle about the spout's
 * axis (u, v: the face's in-plane axes; ties, such as the centre and points on one ray, by distance
 * from the axis), then taken with a stride of about m/φ² (the golden angle's share of a turn,
 * coprime with m, so every point comes once a cycle). Each particle leaves at its own time, a
 * column step after the last, so the stream has no layer that can fall as a raft and part from the
 * next, and it can rearrange and narrow as it stretches. Taken in plain angle order (stride 1) the
 * stream is a helix, which holds as well but is meshed with a screw thread along its surface
 * (docs/decisions.md); the golden stride scatters the times at which neighbours in angle leave.
 */
function emissionOrder(a: Float64Array, b: Float64Array, u: Vec3, v: Vec3): Float64Array {
  const all = new Float64Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  const m = all.length / 3, angle = new Float64Array(m), dist = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const x = all[3 * k], y = all[3 * k + 1], z = all[3 * k + 2];
    const pu = x * u[0] + y * u[1] + z * u[2], pv = x * v[0] + y * v[1] + z * v[2];
    angle[k] = Math.atan2(pv, pu);
    dist[k] = Math.hypot(pu, pv);
  }
  const idx = Array.from({ length: m }, (_, k) => k).sort((i, j) => angle[i] - angle[j] || dist[i] - dist[j] || i - j);
  const out = new Float64Array(3 * m);
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  let stride = Math.max(1, Math.round(m / GOLDEN_SQUARED));
  while (gcd(stride, m) !== 1) stride++;
  for (let o = 0; o < m; o++) {
    const k = idx[(o * stride) % m];
    out.set(all.subarray(3 * k, 3 * k + 3), 3 * o);
  }
  return out;
}

export class Emitters {
  readonly bodies: PendingBody[] = [];
  readonly spouts: Spout[] = [];
  readonly sinks: Sink[] = [];
  readonly outflow: Outflow[];
  /**
   * How close the walls' clamp lets the liquid come to each face (FACES order), m: r, less on a
   * closed face a liquid body's lattice is squeezed towards (start-packing.ts narrowClearance).
   * The simulation hands it to StepContext.wallClearance.
   */
  readonly clearance: Float64Array;
  /** The bodies' closest rest spacing, m: 2r, less where one's lattice is drawn together (start-packing.ts closestSpacing). */
  readonly spacing: number;
  private keep = new Uint8Array(0);

  /**
   * `settle` (start-settle.ts settleStart, handed in by simulation.ts): the settled start of a liquid
   * pool present from the start whose fitted lattice gives way (start-packing.ts latticeGivesWay)
   * or whose rows stand more than LATTICE_LEVEL off the depth asked (displaced first, or, on the
   * cubic lattice, set to the depth first: pool-rows.ts), from its positions, its faces' clearance and the floor it stands on with
   * the depth asked (pool-level.ts: the settle sets the count for that depth); without it such a
   * body keeps its lattice.
   */
  constructor(scene: Scene, settle?: (scene: Scene, body: number, positions: Float64Array, clearance: Float64Array, pool: PoolFloorSpec, displace: boolean) => Float64Array) {
    const r = scene.particle.radius;
    const names = scene.materialNames;
    const walls = scene.particle.walls ? scene.domain : undefined;
    this.clearance = new Float64Array(6).fill(r);
    let spacing = 2 * r;
    scene.bodies.forEach((b, index) => {
      if (scene.materials[b.material].kind !== 'liquid') return;
      const shape = compileShape(b.shape, scene.assets.meshes);
      const { min, max } = shape.bounds;
      narrowClearance(this.clearance, min, max, r, walls);
      spacing = Math.min(spacing, closestSpacing(min, max, r, walls));
      let positions = fitBodyToWalls(sampleVolume(shape, 2 * r, bodyLattice(min, max, r, walls)), min, max, r, walls);
      const floor = walls ? poolFloor(min, max, r, walls) : null;
      if (settle && walls && floor && b.start <= 0 && shape.type === 'box' && !viscosityHoldsLattice(scene, b.material)) {
        const a = floor.axis, at = floor.side < 0 ? walls.min[a] : walls.max[a];
        const asked = floor.side < 0 ? Math.min(max[a], walls.max[a]) - at : at - Math.max(min[a], walls.min[a]);
        const pool = { axis: a, side: floor.side, floor: at, asked, min: walls.min, max: walls.max };
        const givesWay = latticeGivesWay(min, max, r, walls, scene.particle.densityKernel * r);
        const cubic = !givesWay && latticeFits(min, max, r, walls);
        if (givesWay || Math.abs(poolLevel(positions, positions.length / 3, pool, r) - asked) > LATTICE_LEVEL * asked) {
          const own = new Float64Array(6).fill(r);
          narrowClearance(own, min, max, r, walls);
          // The cubic lattice (the footprint whole cells): its columns drawn together to a lattice that
          // holds at the depth asked, on the floor (pool-rows.ts drawnRows), its wall columns' clearance
          // half their spacing; where none is, whole rows on the floor and part of one more. Either is
          // settled undisplaced. A fitted one is displaced and settled.
          const drawn = cubic ? drawnRows(pool, r, scene.particle.densityKernel * r, LATTICE_LEVEL) : null;
          if (drawn) {
            positions = drawn.positions;
            for (let f = 0; f < 6; f++) {
              if (f >> 1 === a) continue;
              own[f] = Math.min(own[f], drawn.spacing[f >> 1] / 2);
              this.clearance[f] = Math.min(this.clearance[f], own[f]);
            }
            spacing = Math.min(spacing, ...drawn.spacing);
          } else if (cubic) {
            positions = rowsToLevel(positions, pool);
          }
          positions = settle(scene, index, positions, own, pool, !cubic);
        }
      }
      this.bodies.push({ start: b.start, material: names.indexOf(b.material), velocity: b.velocity, positions, added: false });
    });
    this.spacing = spacing;
    for (const s of scene.sources) {
      const l = Math.hypot(...s.direction);
      if (!(l > 0)) throw new Error(`source '${s.name ?? s.material}' has a zero direction`);
      const dir: Vec3 = [s.direction[0] / l, s.direction[1] / l, s.direction[2] / l];
      const [u, v] = perpendicularBasis(dir);
      const hu = s.shape === 'disk' ? s.radius : s.size[0] / 2;
      const hv = s.shape === 'disk' ? s.radius : s.size[1] / 2;
      const disk = s.shape === 'disk';
      const area = disk ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
      this.spouts.push({
        material: names.indexOf(s.material),
        start: s.start,
        end: s.end ?? scene.duration,
        speed: s.speed,
        center: s.center,
        direction: dir,
        points: emissionOrder(faceLattice(u, v, hu, hv, disk, 2 * r, 0), faceLattice(u, v, hu, hv, disk, 2 * r, r), u, v),
        next: 0,
        step: (2 * r) ** 3 / area,
        carry: 0,
        u, v, hu, hv, disk,
      });
    }
    this.outflow = outflowFaces(scene);
    for (const s of scene.sinks) {
      this.sinks.push({ shape: compileShape(s.shape, scene.assets.meshes), start: s.start, end: s.end ?? Infinity });
    }
  }

  /** Adds and removes liquid for the sub-timestep [t, t + dt). Returns particles added and removed. */
  apply(ctx: StepContext, t: number, dt: number): { added: number; removed: number } {
    const L = ctx.liquid;
    const before = L.count;
    const eps = 1e-9 * Math.max(1, dt);
    for (const b of this.bodies) {
      if (b.added || b.start > t + eps) continue;
      b.added = true;
      const p = b.positions, m = p.length / 3;
      L.reserve(L.count + m, 1);
      for (let k = 0; k < m; k++) L.add(p[3 * k], p[3 * k + 1], p[3 * k + 2], b.velocity[0], b.velocity[1], b.velocity[2], b.material);
      b.positions = new Float64Array(0); // not needed again (a checkpoint records `added`)
    }
    for (const s of this.spouts) {
      // The column let out up to t (not up to t + δt): a particle is placed where it is at t, and
      // the moves of the piece then carry it on, so its place does not depend on the piece's length
      // (placed where it would be at t + δt and then moved on, it stood a piece's travel too far
      // out, a gap or a crush in the column wherever the pieces' lengths change: docs/decisions.md gel62).
      if (t + eps < s.start || t > s.end + eps) continue;
      letOut(L, s);
      s.carry += s.speed * Math.max(0, Math.min(dt, s.end - t));
    }
    const added = L.count - before;
    let removed = 0;
    const active = this.sinks.filter((s) => t + eps >= s.start && t < s.end);
    const outflow = this.outflow;
    if (active.length > 0 || outflow.length > 0) {
      if (this.keep.length < L.count) this.keep = new Uint8Array(Math.ceil(L.count * 1.25));
      const keep = this.keep, pos = L.pos, reach = ctx.reach;
      let any = false;
      for (let i = 0; i < L.count; i++) {
        keep[i] = 1;
        const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
        for (const o of outflow) {
          if (o.side * (pos[3 * i + o.axis] - o.plane) > reach) {
            keep[i] = 0;
            any = true;
            break;
          }
        }
        if (keep[i] === 0) continue;
        for (const s of active) {
          const lo = s.shape.bounds.min, hi = s.shape.bounds.max;
          if (s.shape.type !== 'plane' && (x < lo[0] || x > hi[0] || y < lo[1] || y > hi[1] || z < lo[2] || z > hi[2])) continue;
          if (s.shape.sdf(x, y, z) < 0) {
            keep[i] = 0;
            any = true;
            break;
          }
        }
      }
      if (any) removed = L.compact(keep);
    }
    return { added, removed };
  }

  /**
   * At a frame's end (after its last piece's moves): lets out the column each spout let out during
   * that piece, where it is now, so that a frame (and a checkpoint) holds area × speed × time; the
   * next piece would place the same particles at the same points. Returns the particles added.
   */
  letOutColumn(ctx: StepContext): number {
    const L = ctx.liquid, before = L.count;
    for (const s of this.spouts) letOut(L, s);
    return L.count - before;
  }

  /**
   * The nozzle: liquid within `length` downstream of an active spout's face, and over its face (a
   * particle radius of margin), moves at the spout's velocity, as liquid still inside a pipe does.
   */
  hold(ctx: StepContext, t: number, length: number): void {
    const L = ctx.liquid, pos = L.pos, vel = L.vel, r = ctx.r;
    for (const s of this.spouts) {
      if (t < s.start || t >= s.end) continue;
      const c = s.center, d = s.direction, u = s.u, v = s.v;
      const hu = s.hu + r, hv = s.hv + r, hu2 = hu * hu;
      const vx = s.speed * d[0], vy = s.speed * d[1], vz = s.speed * d[2];
      for (let i = 0; i < L.count; i++) {
        const x = pos[3 * i] - c[0], y = pos[3 * i + 1] - c[1], z = pos[3 * i + 2] - c[2];
        const a = x * d[0] + y * d[1] + z * d[2];
        if (a < -r || a > length) continue;
        const pu = x * u[0] + y * u[1] + z * u[2], pv = x * v[0] + y * v[1] + z * v[2];
        if (s.disk ? pu * pu + pv * pv > hu2 : Math.abs(pu) > hu || Math.abs(pv) > hv) continue;
        vel[3 * i] = vx;
        vel[3 * i + 1] = vy;
        vel[3 * i + 2] = vz;
      }
    }
  }

  /** State that a checkpoint must carry: which bodies were added, the spouts' carries and which point each lets out next. */
  state(): Float64Array {
    return Float64Array.from([...this.bodies.map((b) => (b.added ? 1 : 0)), ...this.spouts.map((s) => s.carry), ...this.spouts.map((s) => s.next)]);
  }

  restore(state: Float64Array): void {
    this.bodies.forEach((b, k) => {
      b.added = state[k] === 1;
      if (b.added) b.positions = new Float64Array(0);
    });
    const nb = this.bodies.length, ns = this.spouts.length;
    this.spouts.forEach((s, k) => {
      s.carry = state[nb + k];
      s.next = state[nb + ns + k];
    });
  }
}
