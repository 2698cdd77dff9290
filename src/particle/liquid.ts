/**
 * Liquid particles as struct-of-arrays typed arrays (STYLE.md 1). Capacity grows when sources emit;
 * `sortByCell` reorders every field so that the particles of a hashed cell are contiguous.
 *
 * Fields with more than one use in a sub-timestep:
 *   acc     — the adhesion acceleration, from the adhesion stage through the moves to density
 *             correction (which reads it as the body force the correction holds up); with "pbf",
 *             the free-flight offset through the moves (ballistic.ts), then PBF's positions at
 *             its start (pbf.ts; before them, the density cells' build's cell of each point);
 *             scratch of the sort before the adhesion stage writes it;
 *   scalar  — Σk of the viscosity weights (read by the exchange viscosity alone), the implicit
 *             viscosity's volume ratios within its call, the second pressure solve's floor
 *             within its call (pressure.ts), then the density ρ of density correction; before
 *             the adhesion stage, the object cells' and the liquid cells' builds' cell of each
 *             point (StepContext.rebuildObjectCells, CellPairs.buildSorted; the sort does not carry it).
 *
 * What a stage of its own keeps per particle (a liquid's fractions, a temperature) is a channel
 * (channels.ts) that the stage registers here with `addChannel`: sorted, compacted and filled with
 * the liquid's own fields, so that no stage carries its values over by particle id.
 */
import { allocFloat32, allocFloat64, allocInt32, allocUint16, allocUint8 } from '../parallel/memory.ts';
import { ParticleChannel, type ChannelKind, type ChannelSpec } from './channels.ts';

/**
 * Rows to allocate for n particles (or n + 1 list starts) in an array that holds `had` now: n the
 * first time, a quarter more when it grows (a source adding liquid), as the liquid's own capacity.
 */
export function grownRows(n: number, had: number): number {
  return had <= 1 ? n : Math.ceil(n * 1.25);
}

export class LiquidParticles {
  count = 0;
  capacity = 0;
  /** Arrays on SharedArrayBuffers, for a thread team (set by `share`). */
  shared = false;
  /** m. */
  pos = new Float64Array(0);
  /** m/s. */
  vel = new Float64Array(0);
  /** Adhesion acceleration (m/s²) / density correction accumulator (m). */
  acc = new Float64Array(0);
  /** Σk / ρ. */
  scalar = new Float64Array(0);
  /** Index into scene.materialNames. */
  material = new Uint16Array(0);
  /** 1 for surface particles (centroid test), refreshed every sub-timestep. */
  surface = new Uint8Array(0);
  /** Unit normals of surface particles (zero elsewhere), from the centroid test. */
  normal = new Float32Array(0);
  /**
   * 1 when a solid body may be within reach of this sub-timestep's object interactions (adhesion,
   * contact lists, the signed-distance guard): boundaries.ts markNearObjects.
   */
  nearObject = new Uint8Array(0);
  /** ρ/ρ0 after the last density correction. */
  density = new Float32Array(0);
  /** The pressure of the last sub-timestep, p/δt² (pressure.ts: its warm start). */
  lambda = new Float64Array(0);
  /**
   * A number per particle that survives sorting and removal, handed out in order: what names a
   * particle to state that is not one row a particle (gel.ts keys its springs by the ids of their
   * two ends) and in checkpoints.
   */
  id = new Int32Array(0);
  nextId = 0;
  /** The stages' per-particle channels (channels.ts), in the order they were added. */
  readonly channels: ParticleChannel[] = [];

  /**
   * Registers a stage's channel (once, at setup: StepContext's constructor); the particles that
   * already exist start from their material's row. Names are unique.
   */
  addChannel<K extends ChannelKind>(spec: ChannelSpec<K>): ParticleChannel<K> {
    if (this.channels.some((c) => c.name === spec.name)) throw new Error(`channel '${spec.name}' is already registered`);
    const ch = new ParticleChannel(spec, Math.max(this.capacity, 0), this.shared);
    for (let i = 0; i < this.count; i++) ch.fill(i, this.material[i]);
    this.channels.push(ch as unknown as ParticleChannel);
    return ch;
  }

  /** The channel of that name, or null. */
  channel(name: string): ParticleChannel | null {
    return this.channels.find((c) => c.name === name) ?? null;
  }

  /**
   * Room for n particles. `headroom`: the growth beyond n, so that a source adding a few particles a
   * sub-timestep reallocates seldom; an emitter that adds a known count once (a body) asks for 1,
   * and a scene without sources then holds no spare rows (each costs 112 bytes and its channels').
   */
  reserve(n: number, headroom = 1.25): void {
    if (n <= this.capacity) return;
    this.reallocate(Math.max(64, Math.ceil(n * headroom)));
  }

  /** Moves every array onto SharedArrayBuffers (and allocates there from now on) so a thread team can use them. */
  share(): void {
    if (this.shared) return;
    this.shared = true;
    this.reallocate(Math.max(64, this.capacity));
  }

  private reallocate(cap: number): void {
    const sh = this.shared;
    const g64 = (a: Float64Array, k: number) => {
      const b = allocFloat64(cap * k, sh);
      b.set(a.subarray(0, this.count * k));
      return b;
    };
    this.pos = g64(this.pos, 3);
    this.vel = g64(this.vel, 3);
    this.acc = g64(this.acc, 3);
    this.scalar = g64(this.scalar, 1);
    this.lambda = g64(this.lambda, 1);
    const ids = allocInt32(cap, sh);
    ids.set(this.id.subarray(0, this.count));
    this.id = ids;
    const m = allocUint16(cap, sh);
    m.set(this.material.subarray(0, this.count));
    this.material = m;
    const s = allocUint8(cap, sh);
    s.set(this.surface.subarray(0, this.count));
    this.surface = s;
    this.nearObject = allocUint8(cap, sh);
    const nrm = allocFloat32(3 * cap, sh);
    nrm.set(this.normal.subarray(0, 3 * this.count));
    this.normal = nrm;
    const d = allocFloat32(cap, sh);
    d.set(this.density.subarray(0, this.count));
    this.density = d;
    for (const ch of this.channels) ch.reallocate(cap, this.count, sh);
    this.capacity = cap;
  }

  add(x: number, y: number, z: number, vx: number, vy: number, vz: number, material: number): void {
    if (this.count === this.capacity) this.reserve(this.count + 1);
    const i = this.count++, o = 3 * i;
    this.pos[o] = x; this.pos[o + 1] = y; this.pos[o + 2] = z;
    this.vel[o] = vx; this.vel[o + 1] = vy; this.vel[o + 2] = vz;
    this.acc[o] = this.acc[o + 1] = this.acc[o + 2] = 0;
    this.material[i] = material;
    this.surface[i] = 0;
    this.normal[3 * i] = this.normal[3 * i + 1] = this.normal[3 * i + 2] = 0;
    this.density[i] = 1;
    this.lambda[i] = 0;
    this.id[i] = this.nextId++;
    const chs = this.channels;
    for (let c = 0; c < chs.length; c++) chs[c].fill(i, material);
  }

  /** Keeps the particles with keep[i] = 1, in order. Returns how many were removed. */
  compact(keep: Uint8Array): number {
    let w = 0;
    const n = this.count, chs = this.channels;
    for (let i = 0; i < n; i++) {
      if (!keep[i]) continue;
      if (w !== i) {
        for (let k = 0; k < 3; k++) {
          this.pos[3 * w + k] = this.pos[3 * i + k];
          this.vel[3 * w + k] = this.vel[3 * i + k];
        }
        for (let k = 0; k < 3; k++) this.normal[3 * w + k] = this.normal[3 * i + k];
        this.material[w] = this.material[i];
        this.surface[w] = this.surface[i];
        this.density[w] = this.density[i];
        this.lambda[w] = this.lambda[i];
        this.id[w] = this.id[i];
        for (let c = 0; c < chs.length; c++) chs[c].move(w, i);
      }
      w++;
    }
    this.count = w;
    return n - w;
  }

  /**
   * Reorders the persistent fields by `order` (new index → old index): each field is gathered
   * into `acc` (scratch here: sorting comes before the adhesion stage fills it) and copied back
   * (a block copy); the four narrow fields share one gather loop, through views of acc's memory.
   * Then each channel, through the same memory where its rows fit in 24 bytes (channels.ts).
   */
  sortByCell(order: Int32Array): void {
    const n = this.count, tmp = this.acc;
    const permute3 = (a: Float64Array) => {
      for (let i = 0; i < n; i++) {
        const o = 3 * order[i];
        tmp[3 * i] = a[o]; tmp[3 * i + 1] = a[o + 1]; tmp[3 * i + 2] = a[o + 2];
      }
      a.set(tmp.subarray(0, 3 * n));
    };
    permute3(this.pos);
    permute3(this.vel);
    for (let i = 0; i < n; i++) tmp[i] = this.lambda[order[i]];
    this.lambda.set(tmp.subarray(0, n));
    for (let i = 0; i < n; i++) tmp[i] = this.id[order[i]];
    for (let i = 0; i < n; i++) this.id[i] = tmp[i];
    // 24 n bytes of scratch: normal (12 n), density (4 n), material (2 n), surface (n).
    const buf = tmp.buffer, at = tmp.byteOffset;
    const nrm = new Float32Array(buf, at, 3 * n), den = new Float32Array(buf, at + 12 * n, n);
    const mat = new Uint16Array(buf, at + 16 * n, n), srf = new Uint8Array(buf, at + 18 * n, n);
    const normal = this.normal, density = this.density, material = this.material, surface = this.surface;
    for (let i = 0; i < n; i++) {
      const o = order[i];
      nrm[3 * i] = normal[3 * o]; nrm[3 * i + 1] = normal[3 * o + 1]; nrm[3 * i + 2] = normal[3 * o + 2];
      den[i] = density[o];
      mat[i] = material[o];
      srf[i] = surface[o];
    }
    normal.set(nrm);
    density.set(den);
    material.set(mat);
    surface.set(srf);
    const chs = this.channels;
    for (let c = 0; c < chs.length; c++) chs[c].permute(order, n, buf, at, 24 * this.capacity);
  }
}
