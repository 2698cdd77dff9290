/**
 * Volume correction through the pressure solve (Kim, Liu, Llamas, Jiao & Rossignac 2007,
 * "Simulation of bubbles", §4): the volume the tracking lost (or gained) against what was put in is
 * given back as a uniform divergence h ∇·u of the liquid's velocity (PressureSolver.growth), so each
 * body of liquid grows in proportion to its volume and only where its own velocity carries it. As
 * in Kim et al., a PI controller sets it: the proportional part gives back a share of the error
 * each step, the integral part the loss the tracking makes every step, which would otherwise stay
 * as a lasting deficit. Used by the particle level set (trackers/particle-levelset.ts), whose
 * particles move with that velocity too; its shift of φ (levelset-volume.ts) only backs it up where
 * the error exceeds SHIFT_BACKSTOP (a stream the level set erases faster than any divergence
 * gives it back). The volume it holds the liquid to counts what sources put in, sinks took and
 * open box faces let through (trackers/levelset.ts, levelset-volume.ts openFaceInflow): liquid
 * leaving a channel is not lost, and no divergence speeds its flow up to make it good.
 */
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import { levelSetVolume } from './levelset-volume.ts';
import { FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform: copied to a module-level constant.
const FLUID = FLUID_;

/** The share of the volume error given back each step (proportional gain). */
const KP = 0.4;
/** The share of the summed error given back each step (integral gain); with KP the loop settles within ~10 steps. */
const KI = 0.05;
/**
 * The volume error (a fraction of the volume) beyond which φ is shifted as well. Where the loss
 * outpaces the divergence the shift does the same work at any threshold, only the lasting error
 * differs; at 2 % spout-fill kept an arch of liquid in the air at 1.5 s that 3 % did not.
 */
export const SHIFT_BACKSTOP = 0.03;
/**
 * The volume error (a fraction of the volume) the controller leaves alone: the estimator's noise on
 * a moving surface is a few tenths of a percent, and a uniform divergence driven by it adds up
 * along a long channel (the grid's Poiseuille case: 1.5 % off the exact profile without it).
 */
const DEADBAND = 0.005;
/** The depth of the skin that gives nothing of a gain back, in cells (removalWeight). */
const SKIN = 0.5;
/** The most a liquid cell grows in a step, as a fraction of its volume. */
const MAX_GROWTH = 0.1;

/**
 * A liquid cell's weight in taking back volume the tracking gained (a negative growth), from φ at
 * its centre and the cell size h: 0 within half a cell of the surface (every cell of a sheet up to
 * two cells thick), 1 from a cell in, linear between. Kim et al. give every liquid cell the same
 * divergence; a film or sheet one or two cells thick then loses as much per cell as the bulk, and
 * the particle level set's minimum sheet thickness (trackers/pls-cells.ts keepSheets), which gains
 * volume wherever it holds a sheet, drained the honey drop's film off the ball through it
 * (docs/decisions.md, "The sheet rule's volume"). Taken from the liquid below its skin, the same
 * volume leaves the thick bodies, whose surface moves inwards by a small fraction of a cell. The
 * skin is half a cell, not the cell of the rule before (0 within a cell, 1 from two in): that one
 * left a rope or stream a few cells across, and the pile it coils onto, too few cells to give
 * from, and their gain waited for the controller and its backstop (docs/decisions.md, "One
 * take-back for films, streams and coiling"). Where no cell lies below the skin the gain is taken
 * from every liquid cell alike (pressure.ts removalShares). A positive growth stays uniform: every
 * cell can grow.
 */
export function removalWeight(phi: number, h: number): number {
  const w = -phi / (SKIN * h) - 1;
  return w <= 0 ? 0 : w >= 1 ? 1 : w;
}

export class VolumeController {
  /** Σ of the volume errors of past steps (beyond the dead band), m³. */
  integral = 0;
  /** The target h ∇·u the last update set, m/s. */
  growth = 0;
  /** The volume error (a fraction of the expected) beyond which φ is shifted as well. */
  backstop = SHIFT_BACKSTOP;
  /** A gain is taken back from the bulk (removalWeight); false: from every liquid cell alike, as Kim et al. */
  fromBulk = true;

  /** Sets and returns `growth` for the next step (see target). */
  update(s: GridStore, h: number, expected: number, dt: number): number {
    return (this.growth = this.target(s, h, expected, dt));
  }

  /** The volume to shift φ to, where the error exceeds the backstop (its edge), else null. */
  backstopTarget(volume: number, expected: number): number | null {
    if (!(expected > 0) || Math.abs(expected - volume) <= this.backstop * expected) return null;
    return expected - Math.sign(expected - volume) * this.backstop * expected;
  }

  save(w: CheckpointWriter): void {
    w.scalar('pls.growth', this.growth).scalar('pls.volumeIntegral', this.integral);
  }

  /** Restores the state `save` wrote (none in older checkpoints: zero); returns `growth`. */
  restore(r: CheckpointReader): number {
    this.integral = r.has('pls.volumeIntegral') ? r.scalar('pls.volumeIntegral') : 0;
    return (this.growth = r.has('pls.growth') ? r.scalar('pls.growth') : 0);
  }

  /**
   * The target h ∇·u (m/s) for every liquid cell for the next step of about dt s:
   * (KP e + KI Σe) / (dt · cells · h²), e the error expected − V beyond the dead band, at most MAX_GROWTH · h / dt.
   */
  private target(s: GridStore, h: number, expected: number, dt: number): number {
    if (!(expected > 0) || !(dt > 0)) return 0;
    let cells = 0;
    for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID) cells++;
    if (cells === 0) return 0;
    const raw = expected - levelSetVolume(s, h);
    const err = Math.sign(raw) * Math.max(0, Math.abs(raw) - DEADBAND * expected);
    // Anti-windup: the sum holds at most a fifth of the volume.
    this.integral = Math.max(-0.2 * expected, Math.min(0.2 * expected, this.integral + err));
    const rate = (KP * err + KI * this.integral) / (dt * cells * h * h);
    const limit = (MAX_GROWTH * h) / dt;
    return Math.max(-limit, Math.min(limit, rate));
  }
}
