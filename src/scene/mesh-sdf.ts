/**
 * Signed distance to a closed triangle mesh: the exact distance to the closest point, found with a
 * bounding-volume hierarchy held in flat typed arrays, and the sign from angle-weighted
 * pseudo-normals (Bærentzen & Aanæs 2005): the closest point lies on a face, an edge or a vertex,
 * and the sign of (p − closest) · pseudo-normal of that feature is the sign of the distance. That
 * is exact for a closed, consistently oriented (outward) manifold, which `parseOBJ` guarantees.
 */
import type { TriMesh } from './scene.ts';

/** Triangles per BVH leaf. */
const LEAF_SIZE = 4;
/** SAH bins per split. */
const BINS = 12;

/** Closest-point feature codes: the face, a vertex (0..2) or an edge (vertex e to e+1). */
const FACE = 0, VERTEX0 = 1, EDGE0 = 4;

interface Bvh {
  /** Per node: min xyz, max xyz. */
  box: Float64Array;
  /** Inner node: index of the first of its two consecutive children. Leaf: first triangle in `tris`. */
  first: Int32Array;
  /** Triangles of a leaf; 0 for an inner node. */
  size: Int32Array;
  /** Triangle indices in leaf order. */
  tris: Int32Array;
  /** Levels below the root. */
  depth: number;
}

/** Everything a query needs, triangle corners unpacked for locality. */
interface MeshQuery {
  bvh: Bvh;
  /** 9 coordinates per triangle, in `bvh.tris` order. */
  corners: Float64Array;
  /** Unit face normal per triangle (bvh order). */
  faceNormal: Float64Array;
  /** Pseudo-normal per triangle edge (bvh order, 3 per triangle). */
  edgeNormal: Float64Array;
  /** Angle-weighted pseudo-normal per triangle corner (bvh order, 3 per triangle). */
  cornerNormal: Float64Array;
}

/** Builds the signed distance function of a closed, outward-oriented triangle mesh. */
export function buildMeshSdf(mesh: TriMesh): (x: number, y: number, z: number) => number {
  const q = prepare(mesh);
  const stack = new Int32Array(2 * q.bvh.depth + 4);
  const stackD2 = new Float64Array(stack.length);
  const hit = { d2: 0, tri: 0, feature: 0, cx: 0, cy: 0, cz: 0 };
  return (x, y, z) => {
    closest(q, x, y, z, stack, stackD2, hit);
    if (hit.tri < 0) return Infinity;
    const t = hit.tri, f = hit.feature;
    let nx: number, ny: number, nz: number;
    if (f === FACE) {
      nx = q.faceNormal[3 * t]; ny = q.faceNormal[3 * t + 1]; nz = q.faceNormal[3 * t + 2];
    } else if (f < EDGE0) {
      const o = 9 * t + 3 * (f - VERTEX0);
      nx = q.cornerNormal[o]; ny = q.cornerNormal[o + 1]; nz = q.cornerNormal[o + 2];
    } else {
      const o = 9 * t + 3 * (f - EDGE0);
      nx = q.edgeNormal[o]; ny = q.edgeNormal[o + 1]; nz = q.edgeNormal[o + 2];
    }
    const d = Math.sqrt(hit.d2);
    const s = (x - hit.cx) * nx + (y - hit.cy) * ny + (z - hit.cz) * nz;
    return s < 0 ? -d : d;
  };
}

/**
 * The closest point of the mesh to (x, y, z): `out.d2` squared distance, `out.tri` triangle (bvh
 * order, −1 for an empty mesh), `out.feature` the feature code, `out.c*` the point.
 */
function closest(
  q: MeshQuery,
  x: number, y: number, z: number,
  stack: Int32Array,
  stackD2: Float64Array,
  out: { d2: number; tri: number; feature: number; cx: number; cy: number; cz: number },
): void {
  const { box, first, size } = q.bvh;
  const P = q.corners;
  let best = Infinity, bestTri = -1, bestFeature = 0, bx = 0, by = 0, bz = 0;
  let top = 0;
  if (size.length > 0) { stack[0] = 0; stackD2[0] = 0; top = 1; }
  while (top > 0) {
    const node = stack[--top];
    if (stackD2[top] >= best) continue; // box distance when pushed; best may have shrunk since
    const n = size[node];
    if (n > 0) {
      for (let t = first[node], end = first[node] + n; t < end; t++) {
        const o = 9 * t;
        // Closest point on triangle (Ericson, Real-Time Collision Detection §5.1.5), with the region.
        const ax = P[o], ay = P[o + 1], az = P[o + 2];
        const abx = P[o + 3] - ax, aby = P[o + 4] - ay, abz = P[o + 5] - az;
        const acx = P[o + 6] - ax, acy = P[o + 7] - ay, acz = P[o + 8] - az;
        const apx = x - ax, apy = y - ay, apz = z - az;
        const d1 = abx * apx + aby * apy + abz * apz;
        const d2 = acx * apx + acy * apy + acz * apz;
        let u: number, v: number, feature: number; // closest = a + u ab + v ac
        if (d1 <= 0 && d2 <= 0) {
          u = 0; v = 0; feature = VERTEX0;
        } else {
          const bpx = x - P[o + 3], bpy = y - P[o + 4], bpz = z - P[o + 5];
          const d3 = abx * bpx + aby * bpy + abz * bpz;
          const d4 = acx * bpx + acy * bpy + acz * bpz;
          if (d3 >= 0 && d4 <= d3) {
            u = 1; v = 0; feature = VERTEX0 + 1;
          } else {
            const vc = d1 * d4 - d3 * d2;
            if (vc <= 0 && d1 >= 0 && d3 <= 0) {
              u = d1 / (d1 - d3); v = 0; feature = EDGE0;
            } else {
              const cpx = x - P[o + 6], cpy = y - P[o + 7], cpz = z - P[o + 8];
              const d5 = abx * cpx + aby * cpy + abz * cpz;
              const d6 = acx * cpx + acy * cpy + acz * cpz;
              if (d6 >= 0 && d5 <= d6) {
                u = 0; v = 1; feature = VERTEX0 + 2;
              } else {
                const vb = d5 * d2 - d1 * d6;
                if (vb <= 0 && d2 >= 0 && d6 <= 0) {
                  u = 0; v = d2 / (d2 - d6); feature = EDGE0 + 2;
                } else {
                  const va = d3 * d6 - d5 * d4;
                  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
                    v = (d4 - d3) / (d4 - d3 + (d5 - d6)); u = 1 - v; feature = EDGE0 + 1;
                  } else {
                    const denom = 1 / (va + vb + vc);
                    u = vb * denom; v = vc * denom; feature = FACE;
                  }
                }
              }
            }
          }
        }
        const cx = ax + u * abx + v * acx, cy = ay + u * aby + v * acy, cz = az + u * abz + v * acz;
        const dx = x - cx, dy = y - cy, dz = z - cz;
        const dd = dx * dx + dy * dy + dz * dz;
        if (dd < best) {
          best = dd; bestTri = t; bestFeature = feature; bx = cx; by = cy; bz = cz;
        }
      }
    } else {
      // Visit the nearer child first: push it last.
      const l = first[node], r = l + 1;
      const dl = boxDist2(box, l, x, y, z), dr = boxDist2(box, r, x, y, z);
      if (dl < dr) {
        if (dr < best) { stack[top] = r; stackD2[top++] = dr; }
        if (dl < best) { stack[top] = l; stackD2[top++] = dl; }
      } else {
        if (dl < best) { stack[top] = l; stackD2[top++] = dl; }
        if (dr < best) { stack[top] = r; stackD2[top++] = dr; }
      }
    }
  }
  out.d2 = best; out.tri = bestTri; out.feature = bestFeature; out.cx = bx; out.cy = by; out.cz = bz;
}

function boxDist2(box: Float64Array, node: number, x: number, y: number, z: number): number {
  const o = 6 * node;
  const dx = Math.max(box[o] - x, 0, x - box[o + 3]);
  const dy = Math.max(box[o + 1] - y, 0, y - box[o + 4]);
  const dz = Math.max(box[o + 2] - z, 0, z - box[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}

function prepare(mesh: TriMesh): MeshQuery {
  const p = mesh.positions, ix = mesh.indices;
  const triCount = Math.floor(ix.length / 3), vertCount = Math.floor(p.length / 3);
  for (let i = 0; i < 3 * triCount; i++) {
    if (ix[i] >= vertCount) throw new Error(`mesh index ${ix[i]} out of range (${vertCount} vertices)`);
  }
  const bvh = buildBvh(p, ix, triCount);
  // Vertices at the same position are one vertex for the pseudo-normals (meshes with split
  // normals, such as `shapeMesh` boxes, repeat them along creases).
  const same = weld(p, vertCount);

  // Unit face normals and angle-weighted vertex normals (by welded vertex).
  const face = new Float64Array(3 * triCount);
  const vertex = new Float64Array(3 * vertCount);
  for (let t = 0; t < triCount; t++) {
    const a = 3 * ix[3 * t], b = 3 * ix[3 * t + 1], c = 3 * ix[3 * t + 2];
    const e1x = p[b] - p[a], e1y = p[b + 1] - p[a + 1], e1z = p[b + 2] - p[a + 2];
    const e2x = p[c] - p[a], e2y = p[c + 1] - p[a + 1], e2z = p[c + 2] - p[a + 2];
    let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    const l = Math.hypot(nx, ny, nz);
    if (!(l > 0)) continue; // degenerate: contributes no direction
    nx /= l; ny /= l; nz /= l;
    face[3 * t] = nx; face[3 * t + 1] = ny; face[3 * t + 2] = nz;
    for (let k = 0; k < 3; k++) {
      const v = 3 * ix[3 * t + k], v1 = 3 * ix[3 * t + ((k + 1) % 3)], v2 = 3 * ix[3 * t + ((k + 2) % 3)];
      const angle = angleBetween(p[v1] - p[v], p[v1 + 1] - p[v + 1], p[v1 + 2] - p[v + 2],
        p[v2] - p[v], p[v2 + 1] - p[v + 1], p[v2 + 2] - p[v + 2]);
      const w = 3 * same[ix[3 * t + k]];
      vertex[w] += angle * nx; vertex[w + 1] += angle * ny; vertex[w + 2] += angle * nz;
    }
  }

  // Edge pseudo-normals: the sum of the two adjacent face normals, via an open-addressing table
  // keyed by the vertex pair.
  let cap = 16;
  while (cap < 4 * triCount) cap *= 2;
  const mask = cap - 1;
  const keyA = new Int32Array(cap).fill(-1), keyB = new Int32Array(cap);
  const sum = new Float64Array(3 * cap);
  const slotOf = new Int32Array(3 * triCount);
  for (let t = 0; t < triCount; t++) {
    for (let e = 0; e < 3; e++) {
      const v0 = same[ix[3 * t + e]], v1 = same[ix[3 * t + ((e + 1) % 3)]];
      const a = Math.min(v0, v1), b = Math.max(v0, v1);
      let h = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663)) & mask;
      while (keyA[h] >= 0 && !(keyA[h] === a && keyB[h] === b)) h = (h + 1) & mask;
      keyA[h] = a; keyB[h] = b;
      sum[3 * h] += face[3 * t]; sum[3 * h + 1] += face[3 * t + 1]; sum[3 * h + 2] += face[3 * t + 2];
      slotOf[3 * t + e] = h;
    }
  }

  // Unpack into bvh order.
  const corners = new Float64Array(9 * triCount);
  const faceNormal = new Float64Array(3 * triCount);
  const edgeNormal = new Float64Array(9 * triCount);
  const cornerNormal = new Float64Array(9 * triCount);
  for (let s = 0; s < triCount; s++) {
    const t = bvh.tris[s];
    for (let k = 0; k < 3; k++) {
      const v = 3 * ix[3 * t + k], w = 3 * same[ix[3 * t + k]], h = 3 * slotOf[3 * t + k];
      for (let c = 0; c < 3; c++) {
        corners[9 * s + 3 * k + c] = p[v + c];
        cornerNormal[9 * s + 3 * k + c] = vertex[w + c];
        edgeNormal[9 * s + 3 * k + c] = sum[h + c];
      }
      faceNormal[3 * s + k] = face[3 * t + k];
    }
  }
  return { bvh, corners, faceNormal, edgeNormal, cornerNormal };
}

/** For each vertex, the first vertex with exactly the same coordinates. */
function weld(p: Float64Array, vertCount: number): Int32Array {
  const same = new Int32Array(vertCount);
  let cap = 16;
  while (cap < 2 * vertCount) cap *= 2;
  const mask = cap - 1;
  const table = new Int32Array(cap).fill(-1);
  // + 0 turns −0 into 0 so that equal coordinates hash alike.
  const bits = new Uint32Array(Float64Array.from(p.subarray(0, 3 * vertCount), (x) => x + 0).buffer);
  for (let v = 0; v < vertCount; v++) {
    let h = 0;
    for (let w = 6 * v; w < 6 * v + 6; w++) h = Math.imul(h ^ bits[w], 0x9e3779b1) ^ (h >>> 15);
    h &= mask;
    for (;;) {
      const u = table[h];
      if (u < 0) { table[h] = v; same[v] = v; break; }
      if (p[3 * u] === p[3 * v] && p[3 * u + 1] === p[3 * v + 1] && p[3 * u + 2] === p[3 * v + 2]) { same[v] = u; break; }
      h = (h + 1) & mask;
    }
  }
  return same;
}

function angleBetween(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  return Math.atan2(Math.hypot(cx, cy, cz), ax * bx + ay * by + az * bz);
}

/** Binned-SAH BVH over the triangles; leaves hold at most LEAF_SIZE triangles. */
function buildBvh(p: Float64Array, ix: Uint32Array, triCount: number): Bvh {
  const tmin = new Float64Array(3 * triCount), tmax = new Float64Array(3 * triCount);
  const cen = new Float64Array(3 * triCount);
  for (let t = 0; t < triCount; t++) {
    for (let c = 0; c < 3; c++) {
      const a = p[3 * ix[3 * t] + c], b = p[3 * ix[3 * t + 1] + c], d = p[3 * ix[3 * t + 2] + c];
      tmin[3 * t + c] = Math.min(a, b, d);
      tmax[3 * t + c] = Math.max(a, b, d);
      cen[3 * t + c] = (tmin[3 * t + c] + tmax[3 * t + c]) / 2;
    }
  }
  const maxNodes = Math.max(1, 2 * triCount);
  const box = new Float64Array(6 * maxNodes);
  const first = new Int32Array(maxNodes);
  const size = new Int32Array(maxNodes);
  const tris = new Int32Array(triCount);
  for (let t = 0; t < triCount; t++) tris[t] = t;
  if (triCount === 0) return { box, first: new Int32Array(0), size: new Int32Array(0), tris, depth: 0 };

  const binCount = new Int32Array(BINS);
  const binBox = new Float64Array(6 * BINS);
  const rightArea = new Float64Array(BINS);
  let nodes = 1, depth = 0;
  // Work list of nodes to split: node index, range start, range end, level.
  const work: number[] = [0, 0, triCount, 0];
  while (work.length > 0) {
    const level = work.pop()!, end = work.pop()!, start = work.pop()!, node = work.pop()!;
    if (level > depth) depth = level;
    // Node bounds and centroid bounds.
    const o = 6 * node;
    box[o] = box[o + 1] = box[o + 2] = Infinity;
    box[o + 3] = box[o + 4] = box[o + 5] = -Infinity;
    let cmin0 = Infinity, cmin1 = Infinity, cmin2 = Infinity;
    let cmax0 = -Infinity, cmax1 = -Infinity, cmax2 = -Infinity;
    for (let i = start; i < end; i++) {
      const t = 3 * tris[i];
      for (let c = 0; c < 3; c++) {
        if (tmin[t + c] < box[o + c]) box[o + c] = tmin[t + c];
        if (tmax[t + c] > box[o + 3 + c]) box[o + 3 + c] = tmax[t + c];
      }
      cmin0 = Math.min(cmin0, cen[t]); cmax0 = Math.max(cmax0, cen[t]);
      cmin1 = Math.min(cmin1, cen[t + 1]); cmax1 = Math.max(cmax1, cen[t + 1]);
      cmin2 = Math.min(cmin2, cen[t + 2]); cmax2 = Math.max(cmax2, cen[t + 2]);
    }
    const n = end - start;
    const ext0 = cmax0 - cmin0, ext1 = cmax1 - cmin1, ext2 = cmax2 - cmin2;
    const axis = ext0 >= ext1 && ext0 >= ext2 ? 0 : ext1 >= ext2 ? 1 : 2;
    const lo = axis === 0 ? cmin0 : axis === 1 ? cmin1 : cmin2;
    const ext = axis === 0 ? ext0 : axis === 1 ? ext1 : ext2;
    if (n <= LEAF_SIZE || !(ext > 0)) {
      if (n > LEAF_SIZE && n > 64) {
        // Coincident centroids: split the range in half so leaves stay small.
        const mid = start + (n >> 1);
        pushChildren(node, start, mid, end, level);
        continue;
      }
      first[node] = start;
      size[node] = n;
      continue;
    }
    // Bin centroids along the axis and choose the SAH split.
    binCount.fill(0);
    for (let b = 0; b < BINS; b++) {
      binBox[6 * b] = binBox[6 * b + 1] = binBox[6 * b + 2] = Infinity;
      binBox[6 * b + 3] = binBox[6 * b + 4] = binBox[6 * b + 5] = -Infinity;
    }
    const scale = BINS / ext;
    for (let i = start; i < end; i++) {
      const t = 3 * tris[i];
      const b = Math.min(BINS - 1, Math.floor((cen[t + axis] - lo) * scale));
      binCount[b]++;
      for (let c = 0; c < 3; c++) {
        if (tmin[t + c] < binBox[6 * b + c]) binBox[6 * b + c] = tmin[t + c];
        if (tmax[t + c] > binBox[6 * b + 3 + c]) binBox[6 * b + 3 + c] = tmax[t + c];
      }
    }
    const acc = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let b = BINS - 1; b > 0; b--) {
      grow(acc, binBox, b);
      rightArea[b] = halfArea(acc);
    }
    acc.fill(Infinity, 0, 3); acc.fill(-Infinity, 3, 6);
    let bestCost = Infinity, bestSplit = -1, leftN = 0, rightN = n;
    let bestLeftN = 0;
    for (let b = 0; b < BINS - 1; b++) {
      grow(acc, binBox, b);
      leftN += binCount[b];
      rightN -= binCount[b];
      if (leftN === 0 || rightN === 0) continue;
      const cost = halfArea(acc) * leftN + rightArea[b + 1] * rightN;
      if (cost < bestCost) { bestCost = cost; bestSplit = b; bestLeftN = leftN; }
    }
    let mid: number;
    if (bestSplit < 0) {
      mid = start + (n >> 1);
    } else {
      // Partition: triangles whose bin ≤ bestSplit go left.
      let i = start, j = end - 1;
      while (i <= j) {
        const b = Math.min(BINS - 1, Math.floor((cen[3 * tris[i] + axis] - lo) * scale));
        if (b <= bestSplit) i++;
        else { const tmp = tris[i]; tris[i] = tris[j]; tris[j] = tmp; j--; }
      }
      mid = i;
      if (mid - start !== bestLeftN) mid = start + (n >> 1); // cannot happen; keeps the tree valid
    }
    pushChildren(node, start, mid, end, level);
  }
  return { box: box.slice(0, 6 * nodes), first: first.slice(0, nodes), size: size.slice(0, nodes), tris, depth };

  function pushChildren(node: number, start: number, mid: number, end: number, level: number): void {
    const l = nodes;
    nodes += 2;
    first[node] = l;
    size[node] = 0;
    work.push(l, start, mid, level + 1, l + 1, mid, end, level + 1);
  }
}

function grow(acc: number[], binBox: Float64Array, b: number): void {
  for (let c = 0; c < 3; c++) {
    acc[c] = Math.min(acc[c], binBox[6 * b + c]);
    acc[c + 3] = Math.max(acc[c + 3], binBox[6 * b + 3 + c]);
  }
}

function halfArea(a: number[]): number {
  const x = a[3] - a[0], y = a[4] - a[1], z = a[5] - a[2];
  if (!(x >= 0)) return 0;
  return x * y + y * z + z * x;
}
