/**
 * The plain-data shapes the engines hand to the surface builder, the encoders and the renderer.
 * They live below `io/` and `surface/` (DEVELOPING.md, "Direction of imports"), so that those can
 * take them without importing `api.ts`; `api.ts` and `index.ts` re-export them.
 */

/** Liquid particles (particle engine) or marker particles (grid engine). */
export interface FluidPoints {
  count: number;
  /** xyz per point, m. */
  positions: Float32Array;
  /** xyz per point, m/s. */
  velocities: Float32Array;
  /** Index into `scene.materialNames`. */
  materials: Uint16Array;
  /** Relative density ρ/ρ0 where the engine has one. */
  densities?: Float32Array;
  /** 1 for surface particles where the engine knows them. */
  surface?: Uint8Array;
}

/** A triangle mesh; colours are linear RGB in 0..1, three per vertex. */
export interface Mesh {
  positions: Float32Array;
  normals: Float32Array;
  colors?: Float32Array;
  indices: Uint32Array;
}
