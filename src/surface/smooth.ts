/**
 * Taubin λ|μ smoothing (Taubin 1995, "A signal processing approach to fair surface design"): each
 * pass moves every vertex by λ × (mean of its neighbours − itself), then by μ × the same with μ < −λ,
 * a low-pass filter that damps per-particle bumps (wavelengths of a few edges) while keeping the
 * shape and volume of larger features (drops, strings several edges round) — unlike plain Laplacian
 * smoothing, which shrinks them. Uniform (umbrella) weights; vertex adjacency in CSR form.
 */

/** Pass-band values of Taubin's paper: λ = 0.5, μ = −0.53 (k_PB ≈ 0.1). */
export const TAUBIN_LAMBDA = 0.5;
export const TAUBIN_MU = -0.53;

/** Smooths `positions` in place with `iterations` λ|μ pass pairs over the triangle mesh `indices`. */
export function taubinSmooth(positions: Float32Array, indices: Uint32Array, iterations: number): void {
  const nv = positions.length / 3;
  if (iterations <= 0 || nv === 0) return;
  // Undirected edges of a closed mesh: each appears in two triangles, once per direction; collect
  // the directed half-edges a→b of every triangle, which gives each neighbour once per vertex when
  // the mesh is closed and consistently oriented (else a neighbour may appear twice: harmless).
  const degree = new Int32Array(nv + 1);
  for (let t = 0; t < indices.length; t++) degree[indices[t] + 1]++;
  for (let v = 0; v < nv; v++) degree[v + 1] += degree[v];
  const start = degree;
  const fill = start.slice(0, nv);
  const nbr = new Int32Array(indices.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    nbr[fill[a]++] = b;
    nbr[fill[b]++] = c;
    nbr[fill[c]++] = a;
  }
  const delta = new Float32Array(3 * nv);
  const step = (factor: number): void => {
    for (let v = 0; v < nv; v++) {
      const s = start[v], e = start[v + 1];
      if (e === s) continue;
      let x = 0, y = 0, z = 0;
      for (let q = s; q < e; q++) {
        const o = 3 * nbr[q];
        x += positions[o];
        y += positions[o + 1];
        z += positions[o + 2];
      }
      const inv = 1 / (e - s);
      delta[3 * v] = x * inv - positions[3 * v];
      delta[3 * v + 1] = y * inv - positions[3 * v + 1];
      delta[3 * v + 2] = z * inv - positions[3 * v + 2];
    }
    for (let i = 0; i < 3 * nv; i++) positions[i] += factor * delta[i];
  };
  for (let it = 0; it < iterations; it++) {
    step(TAUBIN_LAMBDA);
    step(TAUBIN_MU);
  }
}
