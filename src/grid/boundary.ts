/**
 * Step 3g, solid velocities (Cline §4): faces touching a solid hold the solid's velocity, so no
 * liquid flows into it. At a box wall the face on the wall holds 0 (walls move only tangentially)
 * and the tangential samples inside the wall cells are mirror ghosts of the liquid next to them:
 * −u for no-slip, +u for slip, 2U − u for a moving wall, which puts the wall exactly on the face for
 * interpolation, advection and explicit viscosity. Inside an object the samples hold the object's
 * velocity (set by solids.ts); a face between liquid and object holds the object's normal velocity.
 */
import { MOVING as MOVING_, NOSLIP as NOSLIP_, SLIP as SLIP_, type GridDomain } from './domain.ts';
import { FACE_FIXED as FACE_FIXED_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const MOVING = MOVING_, NOSLIP = NOSLIP_, SLIP = SLIP_, FACE_FIXED = FACE_FIXED_, SOLID = SOLID_;

export function applySolidVelocities(s: GridStore, d: GridDomain): void {
  const { nb, face, type, wall, u, solidVel } = s;
  const n = d.n;
  for (let c = 0; c < s.count; c++) {
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const m = nb[6 * c + 2 * a];
      const cSolid = type[c] === SOLID, mSolid = m >= 0 && type[m] === SOLID;
      if ((cSolid && wall[c] !== 0) || (mSolid && wall[m] !== 0)) {
        u[a][c] = cSolid && wall[c] !== 0 ? wallGhost(s, d, n, c, a) : 0;
        continue;
      }
      // Object: a face between two solid cells holds their mean velocity, a border face the solid's.
      if (cSolid && mSolid) u[a][c] = 0.5 * (solidVel[a][c] + solidVel[a][m]);
      else u[a][c] = cSolid ? solidVel[a][c] : solidVel[a][m];
    }
  }
}

function wallGhost(s: GridStore, d: GridDomain, n: [number, number, number], c: number, a: number): number {
  const w = s.wall[c];
  if (w === 7) return 0;
  const f = w - 1, b = f >> 1;
  if (a === b) return 0;
  // The mirror image of cell c across the wall (no array: this runs for every fixed face of a wall cell).
  let i = s.ci[c], j = s.cj[c], k = s.ck[c];
  if (b === 0) i = f & 1 ? 2 * n[0] - 1 - i : -1 - i;
  else if (b === 1) j = f & 1 ? 2 * n[1] - 1 - j : -1 - j;
  else k = f & 1 ? 2 * n[2] - 1 - k : -1 - k;
  const m = s.find(i, j, k);
  const kind = d.kind[f];
  const inner = m >= 0 && s.type[m] !== SOLID ? s.u[a][m] : 0;
  if (kind === SLIP) return inner;
  if (kind === MOVING) return 2 * d.wallVelocity[3 * f + a] - inner;
  if (kind === NOSLIP) return -inner;
  return 0;
}
