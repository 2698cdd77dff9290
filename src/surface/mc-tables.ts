/**
 * Marching-cubes tables, generated at load time from one rule so that they are watertight and
 * consistently oriented by construction (instead of 256 hand-typed rows):
 *
 * - Corner c of a cell sits at (c & 1, c >> 1 & 1, c >> 2 & 1); bit c of a case is set when that
 *   corner is inside (field < 0).
 * - On every cell face, walked counter-clockwise as seen from inside the cell, each run of inside
 *   corners is cut off by one segment from the crossing where the run ends to the crossing where it
 *   begins. An ambiguous face (inside corners on a diagonal) therefore always separates its inside
 *   corners (TRI_TABLE). The joining tables (TRI_TABLE_JOIN) are those of the complement case
 *   (inside and outside swapped) with each triangle turned over: there an ambiguous face joins its
 *   inside corners and separates the outside ones, so a sheet or a strand that the lattice samples
 *   only through diagonal neighbours stays whole. Both cells that share a face derive the same segments from the same four signs, in
 *   opposite directions, so neighbouring cells meet edge to edge with opposite windings.
 * - Each crossing edge starts one segment and ends another, so the segments close into loops; a
 *   loop is fanned into triangles whose counter-clockwise side faces the outside (field > 0). The
 *   fan start is chosen so that no diagonal joins two crossings of one face, which keeps every
 *   mesh edge shared by exactly two triangles.
 */

/** Cell edge e runs from corner EDGE_CORNER[e] along axis EDGE_AXIS[e]. */
export const EDGE_AXIS = new Uint8Array(12);
export const EDGE_CORNER = new Uint8Array(12);
/** Triangles of case m: TRI_TABLE[16 m + 3 t + v] is a cell edge, for t < TRI_COUNT[m]. */
export const TRI_TABLE = new Int8Array(256 * 16).fill(-1);
export const TRI_COUNT = new Uint8Array(256);
/** The same for the rule that joins inside corners on an ambiguous face. */
export const TRI_TABLE_JOIN = new Int8Array(256 * 16).fill(-1);
export const TRI_COUNT_JOIN = new Uint8Array(256);

const edgeOf = new Int8Array(64).fill(-1); // 8 * lo + hi -> edge

function buildEdges(): void {
  let e = 0;
  for (let a = 0; a < 3; a++) {
    for (let c = 0; c < 8; c++) {
      if (c & (1 << a)) continue;
      EDGE_AXIS[e] = a;
      EDGE_CORNER[e] = c;
      const hi = c | (1 << a);
      edgeOf[8 * c + hi] = e;
      edgeOf[8 * hi + c] = e;
      e++;
    }
  }
}

function edgesShareFace(e1: number, e2: number): boolean {
  const corners = [EDGE_CORNER[e1], EDGE_CORNER[e1] | (1 << EDGE_AXIS[e1]), EDGE_CORNER[e2], EDGE_CORNER[e2] | (1 << EDGE_AXIS[e2])];
  for (let b = 0; b < 3; b++) {
    const s = corners[0] & (1 << b);
    if (corners.every((c) => (c & (1 << b)) === s)) return true;
  }
  return false;
}

/** The four corners of each face, counter-clockwise seen from inside the cell. */
function faceCorners(): number[][] {
  const faces: number[][] = [];
  for (let a = 0; a < 3; a++) {
    const u = (a + 1) % 3, v = (a + 2) % 3;
    for (let s = 0; s < 2; s++) {
      const uv = [[0, 0], [1, 0], [1, 1], [0, 1]];
      if (s === 1) uv.reverse();
      faces.push(uv.map(([cu, cv]) => (s << a) | (cu << u) | (cv << v)));
    }
  }
  return faces;
}

function buildCase(m: number, faces: number[][]): void {
  const next = new Int8Array(12).fill(-1);
  for (const f of faces) {
    const inside = f.map((c) => (m >> c) & 1);
    for (let i = 0; i < 4; i++) {
      if (!inside[i] || inside[(i + 1) % 4]) continue;
      let j = i;
      while (inside[(j + 3) % 4]) j = (j + 3) % 4;
      const from = edgeOf[8 * f[i] + f[(i + 1) % 4]];
      const to = edgeOf[8 * f[(j + 3) % 4] + f[j]];
      if (next[from] !== -1) throw new Error(`marching-cubes table: edge ${from} starts two segments (case ${m})`);
      next[from] = to;
    }
  }
  const seen = new Uint8Array(12);
  let t = 0;
  for (let e0 = 0; e0 < 12; e0++) {
    if (next[e0] < 0 || seen[e0]) continue;
    const loop: number[] = [];
    for (let e = e0; !seen[e]; e = next[e]) {
      if (next[e] < 0) throw new Error(`marching-cubes table: open loop (case ${m})`);
      seen[e] = 1;
      loop.push(e);
    }
    const n = loop.length;
    let start = -1;
    for (let s = 0; s < n && start < 0; s++) {
      let ok = true;
      for (let k = 2; k < n - 1 && ok; k++) ok = !edgesShareFace(loop[s], loop[(s + k) % n]);
      if (ok) start = s;
    }
    if (start < 0) throw new Error(`marching-cubes table: no clean fan for case ${m}`);
    for (let k = 1; k < n - 1; k++) {
      TRI_TABLE[16 * m + 3 * t] = loop[start];
      TRI_TABLE[16 * m + 3 * t + 1] = loop[(start + k) % n];
      TRI_TABLE[16 * m + 3 * t + 2] = loop[(start + k + 1) % n];
      t++;
    }
  }
  if (t > 5) throw new Error(`marching-cubes table: case ${m} needs ${t} triangles`);
  TRI_COUNT[m] = t;
}

buildEdges();
{
  const faces = faceCorners();
  for (let m = 0; m < 256; m++) buildCase(m, faces);
  for (let m = 1; m < 255; m++) {
    const o = 255 - m;
    TRI_COUNT_JOIN[m] = TRI_COUNT[o];
    for (let k = 0; k < TRI_COUNT[o]; k++) {
      TRI_TABLE_JOIN[16 * m + 3 * k] = TRI_TABLE[16 * o + 3 * k];
      TRI_TABLE_JOIN[16 * m + 3 * k + 1] = TRI_TABLE[16 * o + 3 * k + 2];
      TRI_TABLE_JOIN[16 * m + 3 * k + 2] = TRI_TABLE[16 * o + 3 * k + 1];
    }
  }
}
