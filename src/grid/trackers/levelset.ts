/**
 * Level-set tracking (Cline et al. §10; Foster & Fedkiw 2001): φ at the cell centres, negative in
 * the liquid, a signed distance in a band of `extraLayers` cells beyond the buffer zone; a cell is
 * liquid where φ < 0 at its centre. The numerics (WENO advection, fast-marching redistancing) are
 * in ../levelset.ts; this file turns shapes into φ, keeps the cell types and display points, and
 * answers the engine's questions from φ.
 *
 * New liquid (§10.8.1) is unioned into φ at the next grid update: φ = min(φ, sdf) at the centres,
 * and beside the shape's surface the exact distance to the plane through its crossings of the
 * cell axes (found by bisection), so the faces it shares with a closed wall are not free surface.
 */
import type { CheckpointReader, CheckpointWriter } from '../../io/checkpoint.ts';
import type { Scene } from '../../scene/scene.ts';
import type { CompiledShape } from '../../scene/shapes.ts';
import type { SurfaceJob } from '../../surface/index.ts';
import { OPEN, cellKey as cellKey_ } from '../domain.ts';
import { sampleCentre as sampleCentre_ } from '../interpolate.ts';
import { LevelSet } from '../levelset.ts';
import { MAX_TRANSPORT_SUBSTEPS } from '../levelset-transport.ts';
import { fillSolidPhi } from '../redistance.ts';
import { KEEP_ON_SOLID, KEEP_TOP } from '../redistance-seed.ts';
import { cellLiquidFraction, correctVolume, levelSetVolume, openFaceInflow } from '../levelset-volume.ts';
import { MarkerTeamArrays, reseedOnTeam } from '../marker-job.ts';
import { Markers } from '../markers.ts';
import type { Stage } from '../pipeline.ts';
import { cellsInside, spoutAsked, spoutBounds, spoutDistance, type Spout } from '../sources.ts';
import type { GridSimulation, PendingLiquid } from '../step.ts';
import { FLUID as FLUID_, SOLID as SOLID_, type GridStore } from '../store.ts';
import { classifyFaces } from '../update-grid.ts';
import { markersPerAxis } from './markers.ts';
import { surfaceBox } from './surface-box.ts';
import { registerTracker, type SurfaceTracker } from './tracker.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const cellKey = cellKey_, sampleCentre = sampleCentre_, FLUID = FLUID_, SOLID = SOLID_;
/**
 * τ of the spout's flux control (emitSpout), s; at least 1.2 steps, so that the loop's gain per step,
 * (flux at s over area × s) × Δt / τ, stays under 2 (the column passes up to 1.5 times the face's flux).
 */
const SPOUT_FLUX_TIME = 0.02;
/** The flow a spout's column must have been asked for, in seconds of area × speed, before its flow ratio is used (emitSpout). */
const SPOUT_RATIO_WARMUP = 0.025;

export class LevelSetTracker implements SurfaceTracker {
  readonly name: string = 'levelset';
  /**
   * The band must hold the ENO2 stencil (two upwind cells) beyond the distance the surface moves in
   * a step (k_cfl cells): with one extra layer (a 3-cell band at the defaults) the trailing side
   * read the band's clamped edge and a falling blob lost ~1 % per step.
   */
  readonly extrapolateAlongNormals = true;
  readonly extraLayers = 3;
  /**
   * The farthest a substep of φ's transport moves the surface along an axis, in cells: half a cell
   * holds the plain level set's volume (levelset-transport.ts).
   */
  protected readonly transportCells: number = 0.5;
  /** Display points inside φ < 0, regenerated every frame (output only). */
  readonly markers = new Markers();
  readonly levelSet = new LevelSet();
  readonly afterGrid: Stage[];
  readonly afterMove: Stage[] = [];
  protected readonly volumeStage: Stage | null;
  /** Cells whose φ was set exactly from a shape at the last grid update (for redistancing). */
  exactPhi: Uint8Array | null = null;
  /** The volume the liquid should have: what was put in, less what sinks took, m³. */
  expected = 0;
  private pendingKeys: number[] = [];
  private spoutShares: number[] = [];
  protected readonly perAxis: number;

  constructor(scene: Scene) {
    this.perAxis = markersPerAxis(scene);
    // grid.redistanceSeeds (redistance-seed.ts keep; docs/decisions.md, "The rims' fingers: in the velocity or in φ").
    const seeds = scene.grid.redistanceSeeds;
    // "keep-thin": films lying on a solid along gravity's largest component; none without gravity.
    const g = scene.gravity, ga = Math.abs(g[1]) >= Math.abs(g[0]) ? (Math.abs(g[1]) >= Math.abs(g[2]) ? 1 : 2) : Math.abs(g[0]) >= Math.abs(g[2]) ? 0 : 2;
    const down = 2 * ga + (g[ga] > 0 ? 1 : 0);
    const thin = g[ga] === 0 ? 0 : KEEP_ON_SOLID + down, top = g[ga] === 0 ? 0 : KEEP_TOP + down;
    this.levelSet.marching.keepSeeds = seeds === 'keep' ? 1 : seeds === 'keep-beside-solids' ? 2 : seeds === 'keep-thin' ? thin : seeds === 'keep-top' ? top : 0;
    this.afterGrid = [{ name: 'redistance', run: (sim) => this.redistance(sim) }];
    // At the end of the step (after any stage a subclass adds), so that every step ends holding the volume put in.
    this.volumeStage = scene.grid.volumeCorrection ? { name: 'volume', run: (sim, dt) => this.correctVolume(sim, dt) } : null;
    if (this.volumeStage) this.afterMove.push(this.volumeStage);
  }

  /** Moves the whole surface out (or in) to hold the expected volume, by at most half a cell a step. */
  correctVolume(sim: GridSimulation, _dt: number): void {
    if (this.expected <= 0) return;
    this.shiftTo(sim, this.expected);
  }

  /**
   * Evaluations of the volume a correction makes at most (levelset-volume.ts correctVolume): the plain
   * level set finds the shift's root (one Newton step overshot on a splash thinner than a cell, by up to
   * 17 % of its volume; docs/decisions.md, branch vol12); the particle level set, which shifts only beyond
   * a 3 % error, takes one step.
   */
  protected readonly volumeEvaluations: number = 8;

  /** Shifts φ so that the level set holds `target` m³ (levelset-volume.ts), by at most half a cell. */
  protected shiftTo(sim: GridSimulation, target: number): void {
    const shift = correctVolume(sim.store, sim.d.h, sim.band, target, 0.5 * sim.d.h, this.volumeEvaluations);
    fillSolidPhi(sim.store, sim.band, sim.trailingFill);
    sim.count('volumeShift', shift);
    if (Math.abs(shift) > 1e-4 * sim.d.h) this.surfaceMoved(sim, shift);
  }

  /** After the volume correction moved the whole surface out by `shift` m (a hook for the particles). */
  protected surfaceMoved(_sim: GridSimulation, _shift: number): void {}

  /** §10.5: φ back to a signed distance (fast marching), keeping the exact distances of new liquid. */
  redistance(sim: GridSimulation): void {
    this.levelSet.redistance(sim.store, sim.d.h, sim.band, this.exactPhi ?? undefined, sim.trailingFill);
    this.exactPhi = null;
  }

  liquidCells(sim: GridSimulation): number {
    const s = sim.store;
    const need = s.count + this.pendingKeys.length;
    if (sim.liquidKeys.length < need) sim.liquidKeys = new Int32Array(Math.ceil(need * 1.3));
    const keys = sim.liquidKeys;
    let n = 0;
    for (let c = 0; c < s.count; c++) if (s.phi[c] < 0 && s.type[c] !== SOLID) keys[n++] = cellKey(sim.d, s.ci[c], s.cj[c], s.ck[c]);
    for (const k of this.pendingKeys) keys[n++] = k;
    this.pendingKeys.length = 0;
    return n;
  }

  afterRebuild(sim: GridSimulation, s: GridStore, pending: readonly PendingLiquid[]): void {
    if (pending.length > 0) {
      const before = levelSetVolume(s, sim.d.h);
      const d = sim.d, h = d.h, o = d.origin;
      let last = before;
      for (const p of pending) {
        for (let c = 0; c < s.count; c++) {
          if (s.type[c] === SOLID) continue;
          const sd = p.sdf(o[0] + h * (s.ci[c] + 0.5), o[1] + h * (s.cj[c] + 0.5), o[2] + h * (s.ck[c] + 0.5));
          if (sd < s.phi[c]) s.phi[c] = Math.max(sd, -sim.band);
        }
        if (p.spout) {
          const now = levelSetVolume(s, h);
          this.spoutShares.push(now - last);
          last = now;
        }
      }
      this.exactPhi = new Uint8Array(s.count);
      for (const p of pending) this.exactInterface(sim, s, p.sdf);
      const added = levelSetVolume(s, sim.d.h) - before;
      this.expected += added;
      // Each spout's own account (emitSpout emits while it is behind): its share of what the
      // unions added, of the volume after the exact interface distances are written.
      if (this.spoutShares.length > 0) {
        const scale = last - before > 0 ? added / (last - before) : 0;
        let k = 0;
        for (const p of pending) {
          if (!p.spout) continue;
          p.spout.lastAdded = scale * this.spoutShares[k++];
          p.spout.emitted += p.spout.lastAdded;
        }
        this.spoutShares.length = 0;
      }
    }
    // Liquid cells from φ (§10): type follows the sign at the centre; a cell emptied this way must
    // not leave a liquid cell without its buffer, so the faces are classified again.
    classifyFaces(s, true);
  }

  /**
   * Where a shape's surface crosses between two cell centres, finds the crossing by bisection on
   * its signed distance and sets φ of the cells beside it to the distance to the plane through the
   * crossings. Using the shape's distance directly would count the faces a liquid body shares with a
   * closed wall as free surface.
   */
  private exactInterface(sim: GridSimulation, s: GridStore, sdf: (x: number, y: number, z: number) => number): void {
    const d = sim.d, h = d.h, o = d.origin, exact = this.exactPhi!;
    const p = [0, 0, 0], q = [0, 0, 0], m = [0, 0, 0];
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID) continue;
      p[0] = o[0] + h * (s.ci[c] + 0.5); p[1] = o[1] + h * (s.cj[c] + 0.5); p[2] = o[2] + h * (s.ck[c] + 0.5);
      const f0 = sdf(p[0], p[1], p[2]);
      if (Math.abs(f0) > 2 * h) continue;
      let inv2 = 0;
      for (let a = 0; a < 3; a++) {
        let theta = Infinity;
        for (const sgn of [-1, 1]) {
          const nbc = s.nb[6 * c + 2 * a + (sgn > 0 ? 1 : 0)];
          if (nbc < 0 || s.type[nbc] === SOLID) continue;
          q[0] = p[0]; q[1] = p[1]; q[2] = p[2];
          q[a] += sgn * h;
          if ((sdf(q[0], q[1], q[2]) < 0) === (f0 < 0)) continue;
          let lo = 0, hi = 1;
          for (let it = 0; it < 30; it++) {
            const mid = 0.5 * (lo + hi);
            m[0] = p[0]; m[1] = p[1]; m[2] = p[2];
            m[a] += sgn * mid * h;
            if ((sdf(m[0], m[1], m[2]) < 0) === (f0 < 0)) lo = mid;
            else hi = mid;
          }
          theta = Math.min(theta, Math.max(1e-6, 0.5 * (lo + hi)) * h);
        }
        if (theta < Infinity) inv2 += 1 / (theta * theta);
      }
      if (inv2 === 0) continue;
      const dist = 1 / Math.sqrt(inv2);
      if (f0 < 0 || !(s.phi[c] < 0)) {
        s.phi[c] = f0 < 0 ? -dist : dist;
        exact[c] = 1;
      }
    }
  }

  addLiquid(sim: GridSimulation, shape: CompiledShape): void {
    cellsInside(sim.d, shape.bounds.min, shape.bounds.max, (x, y, z) => shape.sdf(x, y, z), 0, this.pendingKeys);
  }

  initialize(sim: GridSimulation): void {
    this.redistance(sim);
    this.expected = this.volume(sim);
    this.reseedMarkers(sim);
  }

  /**
   * φ moves through the step's mean velocity. What that velocity carries in or out through the
   * box's open faces changes the volume the liquid should hold (the level set's volume counts the
   * box alone), so the correction does not read liquid flowing out of a channel as lost.
   */
  move(sim: GridSimulation, dt: number): void {
    if (sim.d.kind.includes(OPEN)) this.expected += dt * openFaceInflow(sim.store, sim.d.h);
    const substeps = this.levelSet.advect(sim.store, sim.d, dt, this.transportCells);
    sim.count('levelsetSubsteps', substeps);
    if (substeps >= MAX_TRANSPORT_SUBSTEPS) sim.count('levelsetSubstepCap', 1);
    this.openGaps(sim, dt);
    fillSolidPhi(sim.store, sim.band, sim.trailingFill);
  }

  /**
   * A separating wall (Chentanez & Müller 2012, "A multigrid fluid pressure solver handling
   * separating solid boundary conditions"): a liquid cell beside a solid that the projection
   * released from tension (pressure.ts, q = 0 there) that the liquid and the solid leave apart
   * (the liquid's velocity on the face opposite the solid's, less the solid's along it) has its
   * surface on its face with the solid (φ at most −h/2), and the gap between them widens by that
   * relative speed: φ += w Δt (the largest w over the cell's solid sides; a wall's and a static
   * body's velocity is 0, a driven or free body's is its own). Upwind transport reads
   * nothing from a solid, so without this φ there never rose, and redistancing rebuilt it from
   * the liquid's far surface: liquid at rest under a lid stayed there. The cell's φ is kept as a
   * distance for the next redistance (exactPhi).
   */
  protected openGaps(sim: GridSimulation, dt: number): void {
    const p = sim.pressure, count = p.released;
    if (count === 0) return;
    const s = sim.store, { nb, phi, type, u } = s, list = p.releasedCells, half = 0.5 * sim.d.h;
    if (!this.exactPhi || this.exactPhi.length < s.count) {
      const exact = new Uint8Array(s.count);
      if (this.exactPhi) exact.set(this.exactPhi);
      this.exactPhi = exact;
    }
    const exact = this.exactPhi;
    for (let t = 0; t < count; t++) {
      const c = list[t];
      if (c >= s.count || !(phi[c] < 0)) continue;
      let away = 0;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m < 0 || type[m] !== SOLID) continue;
        const a = d >> 1;
        // Solid on the −a side: the liquid leaves through the +a face; on the +a side, through c's own −a face.
        // The gap widens by the liquid's speed away from the solid plus the solid's own away from the liquid.
        const v = s.solidVel[a][m];
        const w = (d & 1) === 0 ? (nb[6 * c + d + 1] >= 0 ? u[a][nb[6 * c + d + 1]] : 0) - v : v - u[a][c];
        if (w > away) away = w;
      }
      if (!(away > 0)) continue;
      phi[c] = Math.max(phi[c], -half) + away * dt;
      exact[c] = 1;
    }
    sim.count('releasedCells', count);
  }

  /**
   * The column in front of the spout's face (what it has emitted so far, at most three cells long,
   * so that φ inside is a resolvable distance) holds liquid moving at s·n; φ carries it on. It is
   * unioned in at every step, so that the face is never dry and the rope stays joined to it. The
   * column over a coarse grid is wider than the face (a 4 mm disk on 2 mm cells passes 1.4 times
   * its flux at s), so the speed set in the spout's cells (sources.ts, applySpoutVelocity) is
   * scaled to hold the account, what the unions added, to area × speed × time: the scale is
   * 1 / r + (asked − put in) / (area × speed × τ), within [½, 3/2], τ the larger of 20 ms and 1.2
   * steps. r, the column's flow ratio, is what the unions have added against what area × speed ×
   * scale asked over the same steps, summed from the step the column reached its full length
   * (before, a union adds the column's growth as well): a feed-forward, so that the proportional
   * part's mean is zero (soap-pour's 12 mm disk on 8 mm cells settles at 0.77, honey-coil's 4 mm on
   * 2 mm at 0.61–0.74). The proportional part alone (the control before) settled where it made up
   * for r, τ (1 − 1/r) of flow ahead of what was asked: 2.2 % of honey-coil's and 1.6 % of
   * soap-pour's at 0.5 s (docs/decisions.md, "info's cost on honey-on-spinner, and the grid's spouts
   * in their first half second"). The feed-forward is added, not a factor on the correction, and r is
   * summed, not averaged over a window: either of those changed the correction's gain or let the
   * flux swing, and honey-coil's rope stopped coiling steadily (R² 0.23 and 0.83 against 0.97). A
   * shorter τ chased the noise of each union's measured volume (the scale swung 0.3–0.9 from frame
   * to frame at 10 ms, 0.46–0.6 at 20 ms). The account is compared with what was asked by the
   * step's start: the union queued now adds what left the column in the step before, so the
   * account, read at the step's end, stands at what was asked by then.
   * (Unioned only while the account was behind, the column went in as a slug once in several
   * steps, each slug running off before the next: a beaded stream that gravity pulled apart below
   * the spout.)
   */
  emitSpout(sim: GridSimulation, sp: Spout, dt: number): void {
    const t1 = sim.time + dt;
    if (!(t1 > sp.source.start) || sim.time >= sp.end) return;
    const speed = sp.source.speed, h = sim.d.h;
    const interval = h / this.perAxis / speed;
    if (!(sp.next < Math.min(t1, sp.end) - 1e-9 * interval)) return;
    const s = sp.source, area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
    const flow = area * speed;
    // The flow ratio's sums: what the unions since the last call added, against what the scale then
    // asked; counted once the union before was the full column (three cells long).
    const added = sp.emitted - sp.seen;
    sp.seen = sp.emitted;
    if (speed * (sim.time - s.start) >= 3 * h) {
      sp.flowAdded += added;
      sp.flowAsked += flow * sp.speedScale * dt;
    }
    const ratio = sp.flowAsked > SPOUT_RATIO_WARMUP * flow ? Math.min(2, Math.max(0.5, sp.flowAdded / sp.flowAsked)) : 1;
    // Against what was asked by the step's start: the union queued now adds what left the column
    // in the step before, so the account, read at the step's end, stands at what was asked by then.
    const behind = spoutAsked(sp, sim.time) - sp.emitted;
    sp.speedScale = Math.min(1.5, Math.max(0.5, 1 / ratio + behind / (flow * Math.max(SPOUT_FLUX_TIME, 1.2 * dt))));
    const velocity: [number, number, number] = [speed * sp.speedScale * sp.normal[0], speed * sp.speedScale * sp.normal[1], speed * sp.speedScale * sp.normal[2]];
    const len = Math.min(3 * h, Math.max(h, speed * (t1 - sp.source.start)));
    const column = (x: number, y: number, z: number) => spoutDistance(sp, len, x, y, z);
    sim.addLiquid({ type: 'box', sdf: column, bounds: spoutBounds(sp, len), volume: 0, area: 0 }, velocity, sim.ambientTemperature, sp.material, sp);
    sp.next = Math.min(t1, sp.end);
  }

  sink(sim: GridSimulation, shape: CompiledShape): void {
    const s = sim.store, d = sim.d, h = d.h;
    let changed = false;
    const before = levelSetVolume(s, h);
    for (let c = 0; c < s.count; c++) {
      const sd = shape.sdf(d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5));
      if (-sd > s.phi[c]) { s.phi[c] = -sd; changed = true; }
    }
    if (!changed) return;
    // φ in the solid cells follows (the volume's sub-cells beside a wall read it): else the liquid
    // taken beside a wall was counted as still there until the next fill, and then as lost.
    fillSolidPhi(s, sim.band, sim.trailingFill);
    this.expected -= before - levelSetVolume(s, h);
  }

  endFrame(sim: GridSimulation): void {
    const t1 = performance.now();
    this.reseedMarkers(sim);
    sim.stageMs.markers = performance.now() - t1;
  }

  /**
   * Regenerates the display points inside φ < 0 on a sub-lattice of each liquid cell, then leaves
   * out those inside a body: φ is carried into the bodies' cells (fillSolidPhi), so the sub-points
   * of a cell a body's surface cuts read liquid in the body's part of it too. Free bodies hold no
   * cells (buoyancy.ts: the liquid is not pushed aside), so the liquid they overlap is kept.
   */
  private reseedMarkers(sim: GridSimulation): void {
    this.latticePoints(sim);
    const list = sim.solids.list, solids = sim.solids;
    if (!list.some((b) => !b.motion.isFree)) return;
    this.markers.filter((x, y, z) => {
      for (let b = 0; b < list.length; b++) if (!list[b].motion.isFree && solids.distance(b, x, y, z) < 0) return false;
      return true;
    });
  }

  /** The display points inside φ < 0 on a sub-lattice of each liquid cell. */
  private latticePoints(sim: GridSimulation): void {
    const s = sim.store, d = sim.d, h = d.h, m = this.perAxis;
    this.markers.count = 0;
    // On the grid's team where it has one (marker-job.ts: the same points in the same order).
    if (reseedOnTeam(s, d, this.markers, this.markerArrays, m, sim.band, sim.liquidIndex)) return;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID && !(s.phi[c] < h)) continue;
      if (s.type[c] === SOLID) continue;
      // Sub-points lie within half a cell diagonal of the centre: deep cells need no sampling.
      const deep = s.phi[c] < -0.87 * h;
      for (let q = 0; q < m * m * m; q++) {
        const x = d.origin[0] + h * (s.ci[c] + ((q % m) + 0.5) / m);
        const y = d.origin[1] + h * (s.cj[c] + ((Math.floor(q / m) % m) + 0.5) / m);
        const z = d.origin[2] + h * (s.ck[c] + (Math.floor(q / (m * m)) + 0.5) / m);
        if (deep || sampleCentre(s, d, s.phi, x, y, z, sim.band) < 0) this.markers.add(x, y, z, sim.liquidIndex);
      }
    }
  }

  private readonly markerArrays = new MarkerTeamArrays();

  /** The cell's liquid fraction from φ on its 2×2×2 sub-cells (levelset-volume.ts). */
  cellFraction(s: GridStore, c: number, h: number): number {
    return cellLiquidFraction(s, c, h);
  }

  expectedVolume(_sim: GridSimulation): number {
    return this.expected;
  }

  volume(sim: GridSimulation): number {
    return levelSetVolume(sim.store, sim.d.h);
  }

  cellDistance(sim: GridSimulation, c: number): number {
    return sim.store.phi[c];
  }

  signedDistance(sim: GridSimulation, x: number, y: number, z: number): number {
    return sampleCentre(sim.store, sim.d, sim.store.phi, x, y, z, sim.band);
  }

  inLiquid(sim: GridSimulation, x: number, y: number, z: number): boolean {
    return this.signedDistance(sim, x, y, z) < 0;
  }

  /** clamp(½ − φ/thickness, 0, 1), so a node's buoyancy varies smoothly as it crosses the surface. */
  wetFraction(sim: GridSimulation, p: ArrayLike<number>, thickness: number): number {
    return Math.min(1, Math.max(0, 0.5 - this.signedDistance(sim, p[0], p[1], p[2]) / thickness));
  }

  surfaceJob(sim: GridSimulation, color: [number, number, number]): SurfaceJob {
    const s = sim.store;
    return surfaceBox(sim, color, (phi, index) => {
      for (let c = 0; c < s.count; c++) phi[index(c)] = s.phi[c];
    });
  }

  save(w: CheckpointWriter): void {
    w.scalar('ls.expectedVolume', this.expected);
    // The gaps opened at separating walls (openGaps) wait for the next step's redistance.
    if (this.exactPhi) w.array('ls.exactPhi', this.exactPhi);
  }

  restore(sim: GridSimulation, r: CheckpointReader): void {
    this.expected = r.has('ls.expectedVolume') ? r.scalar('ls.expectedVolume') : this.volume(sim);
    this.exactPhi = r.has('ls.exactPhi') ? r.indices('ls.exactPhi', Uint8Array, undefined, 0, 1).slice() : null;
  }
}

registerTracker({ name: 'levelset', create: (scene) => new LevelSetTracker(scene) });
