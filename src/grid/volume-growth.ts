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
 * gives it back).
 */
import { levelSetVolume } from './levelset-volume.ts';
import { FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform: copied to a module-level constant.
const FLUID = FLUID_;

/** The share of the volume error given back each step (proportional gain). */
const KP = 0.4;
/** The share of the summed error given back each step (integral gain); with KP the loop settles within ~10 steps. */
const KI = 0.05;
/** The volume error (a fraction of the volume) beyond which φ is shifted as well. */
export const SHIFT_BACKSTOP = 0.02;
/**
 * The volume error (a fraction of the volume) the controller leaves alone: the estimator's noise on
 * a moving surface is a few tenths of a percent, and a uniform divergence driven by it adds up
 * along a long channel (the grid's Poiseuille case: 1.5 % off the exact profile without it).
 */
const DEADBAND = 0.005;
/** The most a liquid cell grows in a step, as a fraction of its volume. */
const MAX_GROWTH = 0.1;

export class VolumeController {
  /** Σ of the volume errors of past steps, m³. */
  integral = 0;

  /**
   * The target h ∇·u (m/s) for every liquid cell for the next step of about dt s:
   * (KP e + KI Σe) / (dt · cells · h²), e the error expected − V beyond the dead band, at most MAX_GROWTH · h / dt.
   */
  growth(s: GridStore, h: number, expected: number, dt: number): number {
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
