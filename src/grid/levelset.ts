/**
 * The level set's numerics in one object (Cline et al. §10; Foster & Fedkiw 2001): φ at cell
 * centres, negative in the liquid, a signed distance in a narrow band that lives in the same hashed
 * cells as the MAC grid (the band is the buffer zone: cells further out do not exist and read as
 * +band). Transport in levelset-transport.ts, redistancing in redistance.ts, volume in
 * levelset-volume.ts.
 */
import type { GridDomain } from './domain.ts';
import { LevelSetTransport } from './levelset-transport.ts';
import { FastMarching } from './redistance.ts';
import type { GridStore } from './store.ts';

export { levelSetVolume } from './levelset-volume.ts';

export class LevelSet {
  readonly marching = new FastMarching();
  private readonly transport = new LevelSetTransport();

  /**
   * Rebuilds φ as a signed distance up to `band` (m). Cells flagged in `exact` keep their |φ| as
   * the initial distances; `trail`: the solid cells' fill after it (redistance.ts fillSolidPhi).
   */
  redistance(s: GridStore, h: number, band: number, exact?: Uint8Array, trail = 0): void {
    this.marching.redistance(s, h, band, exact, trail);
  }

  /** Moves φ through the velocity field for Δt, substeps moving the surface at most `axisCells` along an axis; returns the number of substeps. */
  advect(s: GridStore, d: GridDomain, dt: number, axisCells = 0.5): number {
    return this.transport.advect(s, d, dt, axisCells);
  }

  /** The cell-centre velocities the last `advect` moved φ with (xyz interleaved). */
  centreVelocities(): Float64Array {
    return this.transport.centreVelocities();
  }
}
