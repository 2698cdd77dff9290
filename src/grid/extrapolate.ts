/**
 * Step 3f, extrapolating liquid velocities into the buffer zone (Cline §4, Figure 7): layer by
 * layer outwards from the liquid, each sample that does not border liquid takes the average of the
 * same component in the neighbours of the previous layer. `extrapolateCentre` does the same for a
 * centre field (temperature, log viscosity, §7.2).
 *
 * Given the level set, the average is weighted towards the neighbours that lie back along the
 * surface normal (weight max(0, −n·e) for the neighbour in direction e, n = ∇φ/|∇φ|): the
 * extrapolated velocity is then constant along normals, the extension Enright, Marschner & Fedkiw
 * (2002) use, so the air beside a curved surface moves with the surface instead of with an average
 * of differently oriented liquid, and particles of the particle level set stay on their side.
 */
import { FACE_FREE as FACE_FREE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const FACE_FREE = FACE_FREE_, FLUID = FLUID_, SOLID = SOLID_;

let normals = new Float64Array(0);
/** normals[3c…] holds cell c's ∇φ of the current call where stamp[c] === epoch. */
let stamp = new Int32Array(0);
let epoch = 0;

/**
 * ∇φ at cell c by central differences (one-sided at the band's edge), unnormalised, into normals
 * (callers check the stamp first); computed once a call, for the cells the layers read it at (the frontier cells and the cells
 * behind their faces), not the whole store.
 */
function cellNormal(s: GridStore, c: number): void {
  stamp[c] = epoch;
  const { nb, phi, type } = s;
  for (let a = 0; a < 3; a++) {
    const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
    const okLo = lo >= 0 && type[lo] !== SOLID, okHi = hi >= 0 && type[hi] !== SOLID;
    normals[3 * c + a] = okLo && okHi ? phi[hi] - phi[lo] : okHi ? phi[hi] - phi[c] : okLo ? phi[c] - phi[lo] : 0;
  }
}

const prevCell = new Int32Array(6), prevDir = new Int32Array(6), normalSum = new Float64Array(3);
let frontier = new Int32Array(0);
let nextFrontier = new Int32Array(0);

export function extrapolateVelocity(s: GridStore, layers: number, alongNormals = false): void {
  const { nb, face, type, layer, u } = s;
  if (frontier.length < s.count) {
    frontier = new Int32Array(Math.ceil(s.count * 1.3));
    nextFrontier = new Int32Array(frontier.length);
  }
  if (alongNormals) {
    if (stamp.length < s.count) {
      stamp = new Int32Array(frontier.length);
      normals = new Float64Array(3 * frontier.length);
      epoch = 0;
    }
    if (++epoch === 0x7fffffff) { stamp.fill(0); epoch = 1; }
  }
  const n = alongNormals ? normals : null;
  // Layer 1 (the cells beside liquid) from one pass over the cells that also sets the liquid's
  // layer 0; each later layer from the neighbours of the one before.
  let fn = 0, liquid = 0;
  for (let c = 0; c < s.count; c++) {
    const t = type[c];
    layer[c] = t === FLUID ? 0 : -1;
    if (t === FLUID) liquid++;
    if (t === FLUID || t === SOLID) continue;
    for (let d = 0; d < 6; d++) {
      const m = nb[6 * c + d];
      if (m >= 0 && type[m] === FLUID) { frontier[fn++] = c; break; }
    }
  }
  // Where the layers hold most of the cells (a thin film, a drop), the normals of every cell in one
  // sequential pass cost less than finding the ones read.
  if (n !== null && 2 * liquid < s.count) for (let c = 0; c < s.count; c++) cellNormal(s, c);
  for (let l = 1; l <= layers && fn > 0; l++) {
    // The layer's cells are marked first; each reads only the layer before it, so the order of
    // the cells within a layer does not matter.
    for (let f = 0; f < fn; f++) layer[frontier[f]] = l;
    for (let f = 0; f < fn; f++) {
      const c = frontier[f];
      if (n !== null && stamp[c] !== epoch) cellNormal(s, c);
      // The neighbours in the layer before, in direction order (shared by the cell's three faces).
      let k = 0;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && layer[m] === l - 1) { prevCell[k] = m; prevDir[k++] = d; }
      }
      for (let a = 0; a < 3; a++) {
        if (face[3 * c + a] !== FACE_FREE) continue;
        const ua = u[a];
        let sum = 0, wsum = 0, wu = 0;
        if (n === null) {
          for (let q = 0; q < k; q++) sum += ua[prevCell[q]];
        } else {
          // The face's normal: the sum of the two cells' it separates.
          const back = nb[6 * c + 2 * a];
          if (back >= 0 && stamp[back] !== epoch) cellNormal(s, back);
          const o = 3 * (back >= 0 ? back : c);
          normalSum[0] = n[3 * c] + n[o]; normalSum[1] = n[3 * c + 1] + n[o + 1]; normalSum[2] = n[3 * c + 2] + n[o + 2];
          for (let q = 0; q < k; q++) {
            const v = ua[prevCell[q]], d = prevDir[q], na = normalSum[d >> 1];
            sum += v;
            const w = d & 1 ? -na : na;
            if (w > 0) { wsum += w; wu += w * v; }
          }
        }
        ua[c] = wsum > 0 ? wu / wsum : sum / k;
      }
    }
    if (l === layers) break;
    let nn = 0;
    for (let f = 0; f < fn; f++) {
      const c = frontier[f];
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m < 0 || layer[m] !== -1 || type[m] === SOLID) continue;
        layer[m] = -3; // listed for the next layer
        nextFrontier[nn++] = m;
      }
    }
    const t = frontier;
    frontier = nextFrontier;
    nextFrontier = t;
    fn = nn;
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
