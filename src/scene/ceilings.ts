/**
 * The scene's `limits` (safety caps checked before anything is allocated) and their ceilings: a
 * scene may raise a cap only as far as the engines can index, checked at parse time.
 */
import { z } from 'zod';

/**
 * The most cells the grid engine can index: its pressure system keeps 6 neighbour entries a cell in
 * one Int32-indexed array grown by 30 % (pressure.ts), which must stay under 2^31 − 1 entries.
 * Above about 10^9 cells the first pressure solve failed, and past 8·10^9 the liquid vanished.
 */
export const MAX_CELLS_CEILING = 2 ** 28;
/**
 * The most particles the particle engine can index: its neighbour lists hold some 40–60 entries a
 * particle in Int32-indexed arrays, which must stay under 2^31 − 1 entries.
 */
export const MAX_PARTICLES_CEILING = 2 ** 25;

export const limits = z
  .strictObject({
    maxParticles: z.int().positive().max(MAX_PARTICLES_CEILING, `must be ≤ ${MAX_PARTICLES_CEILING.toLocaleString('en-US')} (2^25), the most particles the engine can index`).default(2_000_000).describe(`Refuse scenes whose estimated particle count is larger. At most ${MAX_PARTICLES_CEILING.toLocaleString('en-US')} (2^25), what the engine's Int32-indexed neighbour lists hold.`),
    maxCells: z.int().positive().max(MAX_CELLS_CEILING, `must be ≤ ${MAX_CELLS_CEILING.toLocaleString('en-US')} (2^28), the most cells the grid engine can index`).default(16_000_000).describe(`Refuse scenes whose estimated grid cell count, or the cells of the lattice their liquid is meshed on (output.resolution), is larger. At most ${MAX_CELLS_CEILING.toLocaleString('en-US')} (2^28), what the grid's Int32-indexed pressure system holds.`),
  })
  .describe('Safety caps checked before anything is allocated.');
