/**
 * The pressure's Courant number on the GPU, host side (src/particle/pressure.ts pressurePieces,
 * pressure-filter.ts; docs/decisions.md "Deep water at rest"): each liquid's particle-scale filter
 * strength written into the parameters block a sub-timestep (LiquidFilter), and the pieces a
 * sub-timestep is split into (pressurePieces) from the largest stored pressures, which the speed
 * kernel (step-wgsl.ts) finds with the largest speed: the one read-back a sub-timestep that the
 * split already took (simulation.ts maxSpeed), three words instead of one. The filter's steps are
 * found on the GPU (pressure-filter-wgsl.ts filterCount), from the sub-timestep's own first solve.
 */
import type { Scene } from '../scene/scene.ts';
import { FILTER_PIECE_COURANT, filterStrengths } from '../particle/pressure-filter.ts';
import { liquidViscosity } from '../particle/viscosity-weiler.ts';
import { stillWater } from '../particle/still-water.ts';
import { liquidMaterials } from './liquids.ts';
import { shiftsPresent } from './pressure-shift-wgsl.ts';
import { LIQUID_PARAMS } from './wgsl.ts';

/** Each liquid's filter strength at a sub-timestep's length (pressure-filter.ts filterStrengths), written with no allocation. */
export class LiquidFilter {
  private readonly materials: ReturnType<typeof liquidMaterials>;
  private readonly nu: Float64Array;
  private readonly liquid: Uint8Array;
  private readonly out: Float64Array;
  /** With two solves and the implicit viscosity only (pressure-shift-wgsl.ts shiftsPresent). */
  readonly present: boolean;
  /** The parameters block's words. */
  private readonly f: Float32Array;
  /** The largest strength last written (P.filterStrength; 0: no liquid is filtered, and the still-water gate reads every liquid). */
  largest = 0;

  /** data: the parameters block (wgsl.ts Params) this writes into. */
  constructor(private readonly scene: Scene, private readonly r: number, data: ArrayBuffer) {
    this.f = new Float32Array(data);
    this.materials = liquidMaterials(scene);
    const L = this.materials.length;
    this.nu = new Float64Array(L);
    this.liquid = new Uint8Array(L).fill(1);
    this.out = new Float64Array(L);
    this.present = shiftsPresent(scene.particle);
  }

  /**
   * Writes liquid l's strength at sub-timestep dt into P.liq[l].z (liquids-wgsl.ts) and the
   * largest into P.filterStrength (0: the filter is not dispatched). Returns the largest.
   */
  write(dt: number): number {
    const f = this.f, sc = this.scene, M = this.materials, nu = this.nu, out = this.out;
    let largest = 0;
    if (this.present) {
      for (let l = 0; l < M.length; l++) {
        const mat = sc.materials[sc.materialNames[M[l]]];
        nu[l] = mat.kind === 'liquid' ? liquidViscosity(mat, this.r, dt) : 0;
      }
      filterStrengths(nu, this.liquid, dt, this.r, out);
    } else out.fill(0);
    for (let l = 0; l < M.length; l++) {
      f[LIQUID_PARAMS + 4 * l + 2] = out[l];
      if (out[l] > largest) largest = out[l];
    }
    f[35] = largest;
    this.largest = largest;
    return largest;
  }
}

/** What the speed kernel found (step-wgsl.ts speed): m/s and p/ρ0 in m²/s². */
export interface SlotMaxima {
  speed: number;
  /** The largest stored pressure p/ρ0 of any slot (vel.w). */
  pressure: number;
  /** The same among the slots the filter damps (a filtered liquid, not next to a body). */
  filtered: number;
  /** The gate's liquid is near rest (still-water.ts stillWater, from its largest speed: the filtered slots, or every slot where none is filtered): the solves take the deep-water stop where filtered, and PBF feeds the warm start. */
  still: boolean;
}

/**
 * The speed kernel's four words (step-wgsl.ts speed) into `out`, the still-water state updated from
 * the gate's liquid (still-water.ts; pressure.ts applyPressure): the filtered slots' largest speed and
 * pressure where `filtering` (P.filterStrength > 0, as the kernel read it), else every slot's largest
 * speed not next to a body (stats[3]) against every slot's largest pressure (stats[1]: this one also
 * reads the slots next to a body, which the CPU's gatePressure leaves out).
 */
export function readMaxima(out: SlotMaxima, m: Float32Array, filtering = true): SlotMaxima {
  out.speed = m[0]; out.pressure = m[1]; out.filtered = m[2];
  out.still = filtering ? stillWater(out.still, m[3], m[2]) : stillWater(out.still, m[3], m[1]);
  return out;
}

/**
 * Pieces a sub-timestep of length dt is split into for the pressure's stability (pressure.ts
 * pressurePieces): δt √(p/ρ0) ≤ particle.pressureCourant · 2r where that is > 0, and over the
 * filtered slots ≤ FILTER_PIECE_COURANT · s, s the liquid's closest rest spacing (StepContext.restSpacing:
 * 2r, less where a body's start was drawn together to fit its walls, start-packing.ts), with the
 * pressures of the last sub-timestep.
 */
export function pressurePieces(scene: Scene, r: number, dt: number, m: SlotMaxima, restSpacing: number): number {
  const P = scene.particle, C = P.pressureCourant;
  if (P.pressureIterations === 0) return 1;
  let pieces = 1;
  if (C > 0) pieces = Math.max(pieces, Math.ceil((Math.sqrt(m.pressure) * dt) / (C * 2 * r)));
  pieces = Math.max(pieces, Math.ceil((Math.sqrt(m.filtered) * dt) / (FILTER_PIECE_COURANT * restSpacing)));
  return pieces > 1 ? pieces : 1;
}
