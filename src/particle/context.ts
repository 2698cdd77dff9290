/**
 * Everything a sub-timestep reads and writes, built once from the scene: the particles, the
 * adhesion matrix, per-material constants, the cell structures and neighbour lists, and counters.
 */
import type { Scene } from '../scene/scene.ts';
import { latticeMissingWeight, latticeRestDensity } from '../math/kernels.ts';
import { buildAdhesionMatrix, type AdhesionMatrix } from './adhesion-matrix.ts';
import { calibratedExchangeRate } from './calibration.ts';
import { LiquidParticles } from './liquid.ts';
import { ObjectParticles } from './objects.ts';
import { CellPairs, NeighbourList } from './neighbours.ts';

/** Liquid–liquid pairs closer than this many radii at the start of a sub-timestep are checked for contact in its moves. */
export const CONTACT_REACH = 3;

export class StepContext {
  readonly scene: Scene;
  /** Liquid particle radius r, m. */
  readonly r: number;
  /** Object particle radius, m. */
  readonly ro: number;
  readonly liquid = new LiquidParticles();
  readonly objects: ObjectParticles;
  readonly adhesion: AdhesionMatrix;
  /** Per material (scene.materialNames order). */
  readonly isLiquid: Uint8Array;
  /** Particle mass, kg: density · (2r)³. */
  readonly mass: Float64Array;
  /** Momentum-exchange rate v, 1/s. */
  readonly exchangeRate: Float64Array;
  /** Viscosity kernel support, m. */
  readonly kernelSupport: Float64Array;
  readonly elastic: Float64Array;
  readonly tolerance: Float64Array;
  /**
   * Largest support of any liquid–liquid interaction (viscosity kernel, liquid adhesion, contact,
   * the surface test's sampling sphere), m: the edge of the liquid cells and the reach of the
   * recorded pair list.
   */
  readonly reach: number;
  /**
   * Largest support of any liquid–object interaction (adhesion, contact), m: the edge of the object
   * cells. Kept apart from `reach` so that a long-range liquid–object adhesion (the honey drop's
   * honey–ball reaches 8 r) does not widen the liquid cells: on the honey drop the liquid pair
   * list had 108 pairs a particle at 8 r, 33 at 5 r.
   */
  readonly objectReach: number;
  /** Density kernel support h, m, and the lattice rest density ρ0. */
  readonly densityH: number;
  readonly rho0: number;
  /** ω̄ that fills a missing lattice neighbour (density.ts). */
  readonly missingWeight: number;

  readonly cells: CellPairs;
  readonly objectCells: CellPairs;
  readonly densityCells: CellPairs;
  /** Liquid–liquid pairs i < j within CONTACT_REACH radii (sorted indices). */
  readonly contacts = new NeighbourList();
  /** Liquid → object particles within reach of contact or adhesion. */
  readonly objectContacts = new NeighbourList();
  /**
   * Liquid pairs within the density kernel, keyed by slot in densityCells.grid.order. The same
   * storage as `contacts`: the moves are over when density correction lists its pairs.
   */
  readonly densityPairs = this.contacts;
  objectCellsValid = false;

  /** Time and frame, advanced by step.ts. */
  time = 0;
  frame = 0;
  /** Counters of the current frame (reset by stepFrame). */
  counters: Record<string, number> = {};
  /** Mean |ρ − ρ0| / ρ0 after the last density correction. */
  densityError = 0;

  constructor(scene: Scene) {
    this.scene = scene;
    const r = scene.particle.radius;
    this.r = r;
    this.ro = r * scene.particle.objectRadius;
    this.objects = new ObjectParticles(scene);
    this.adhesion = buildAdhesionMatrix(scene);
    const names = scene.materialNames;
    const nm = names.length;
    this.isLiquid = new Uint8Array(nm);
    this.mass = new Float64Array(nm);
    this.exchangeRate = new Float64Array(nm);
    this.kernelSupport = new Float64Array(nm);
    this.elastic = new Float64Array(nm);
    this.tolerance = new Float64Array(nm);
    let maxKernel = 0;
    names.forEach((name, m) => {
      const mat = scene.materials[name];
      if (mat.kind !== 'liquid') return;
      this.isLiquid[m] = 1;
      this.mass[m] = mat.density * (2 * r) ** 3;
      this.exchangeRate[m] = calibratedExchangeRate(mat, r, 1 / (scene.fps * scene.particle.substeps));
      this.kernelSupport[m] = mat.particle.kernelSupport * r;
      this.elastic[m] = mat.particle.elasticCoefficient;
      this.tolerance[m] = mat.particle.densityTolerance;
      maxKernel = Math.max(maxKernel, this.kernelSupport[m]);
    });
    this.densityH = scene.particle.densityKernel * r;
    this.rho0 = latticeRestDensity(2 * r, this.densityH);
    this.missingWeight = latticeMissingWeight(2 * r, this.densityH);
    let liquidSupport = 0, objectSupport = 0;
    for (let a = 0; a < nm; a++) {
      for (let b = 0; b < nm; b++) {
        const s = this.adhesion.support[a * nm + b];
        if (this.isLiquid[a] && this.isLiquid[b]) liquidSupport = Math.max(liquidSupport, s);
        else if (this.isLiquid[a] || this.isLiquid[b]) objectSupport = Math.max(objectSupport, s);
      }
    }
    this.reach = Math.max(maxKernel, liquidSupport * r, CONTACT_REACH * r, this.densityH);
    this.objectReach = Math.max(objectSupport * r, r + this.ro + r);
    this.cells = new CellPairs(this.reach);
    this.objectCells = new CellPairs(this.objectReach);
    this.densityCells = new CellPairs(this.densityH);
  }

  count(name: string, by = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + by;
  }
}
