/**
 * Surfaces from particles (Steele et al. 2004, "Rendering") and from level sets (Cline et al. 2005
 * §10), through one polygonizer, with the same resolution rules and vertex attributes. Pure: takes
 * plain arrays and knows neither engine.
 */
export { particleSurface, type ParticleSurfaceInput, type SurfaceOptions, type SurfaceTimings } from './particle-surface.ts';
export { meshSurfaceJob, type SurfaceJob } from './job.ts';
export { tintMesh, type TintSource } from './tint.ts';
export { levelSetAt, levelSetLattice, levelSetSurface, type LevelSetInput } from './level-set.ts';
export { checkMesh, type MeshReport } from './check-mesh.ts';
export { polygonizers, type PolygonizerName, type Polygonizer, type Lattice } from './polygonizer.ts';
