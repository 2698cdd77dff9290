/**
 * Step 3f, extrapolating liquid velocities into the buffer zone (Cline §4, Figure 7): layer by
 * layer outwards from the liquid, each sample that does not border liquid takes the average of the
 * same component in the neighbours of the previous layer. `extrapolateCentre` does the same for a
 * centre field (temperature, log viscosity, §7.2).
 */
import { FACE_FREE as FACE_FREE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const FACE_FREE = FACE_FREE_, FLUID = FLUID_, SOLID = SOLID_;

export function extrapolateVelocity(s: GridStore, layers: number): void {
  const { nb, face, type, layer, u } = s;
  for (let c = 0; c < s.count; c++) layer[c] = type[c] === FLUID ? 0 : -1;
  for (let l = 1; l <= layers; l++) {
    for (let c = 0; c < s.count; c++) {
      if (layer[c] !== -1 || type[c] === SOLID) continue;
      let touches = false;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && layer[m] === l - 1) { touches = true; break; }
      }
      if (!touches) continue;
      for (let a = 0; a < 3; a++) {
        if (face[3 * c + a] !== FACE_FREE) continue;
        let sum = 0, cnt = 0;
        for (let d = 0; d < 6; d++) {
          const m = nb[6 * c + d];
          if (m >= 0 && layer[m] === l - 1) { sum += u[a][m]; cnt++; }
        }
        u[a][c] = sum / cnt;
      }
      layer[c] = l;
    }
  }
  // Samples beyond the extrapolated layers hold nothing meaningful: zero them.
  for (let c = 0; c < s.count; c++) {
    if (layer[c] !== -1 || type[c] === SOLID) continue;
    for (let a = 0; a < 3; a++) if (face[3 * c + a] === FACE_FREE) u[a][c] = 0;
  }
}

export function extrapolateCentre(s: GridStore, field: Float64Array, layers: number): void {
  const { nb, type, layer } = s;
  for (let c = 0; c < s.count; c++) layer[c] = type[c] === FLUID ? 0 : -1;
  for (let l = 1; l <= layers; l++) {
    for (let c = 0; c < s.count; c++) {
      if (layer[c] !== -1) continue;
      let sum = 0, cnt = 0;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && layer[m] === l - 1) { sum += field[m]; cnt++; }
      }
      if (cnt === 0) continue;
      field[c] = sum / cnt;
      layer[c] = l;
    }
  }
}
