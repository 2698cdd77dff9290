/**
 * The implicit viscosity's Laplacian estimate (src/particle/viscosity-weiler-solve.ts pairFactor)
 * summed over three arrangements of neighbours at the rest number density 1/(2r)³, for a shear flow
 * u_y(x) (the moment Σ F d_x² d_y²), each against the aligned lattice of spacing 2r that
 * latticeLaplacianConstant (viscosity-weiler.ts) normalizes to: layers x = const sliding past each
 * other in y (averaged over their offsets), and the continuum (a disordered neighbourhood), for
 * supports of 4, 5 and 6 radii with every pair, and for the support of 5 with the pairs within a
 * fraction of it (material.particle.kernelReach: 0.78 the default), with the pairs a particle has
 * in the continuum. docs/decisions.md, "the implicit solve's constant from the rest lattice" and
 * "the implicit viscosity's pairs within 3.9 radii", quote it.
 *   npx tsx bench/viscosity-lattice.ts
 */
import { pairFactor } from '../src/particle/viscosity-weiler-solve.ts';
import { latticeLaplacianConstant } from '../src/particle/viscosity-weiler.ts';

const s = 2; // lengths in radii
const cases: [number, number][] = [[4, 1], [5, 1], [6, 1], [5, 0.74], [5, 0.76], [5, 0.78], [5, 0.8], [5, 0.81], [5, 0.9]];
for (const [h, cut] of cases) {
  const c = cut * h, c2 = c * c, m = Math.ceil(c / s) + 1, N = 400, M = 160;
  let aligned = 0, sliding = 0, continuum = 0;
  for (let a = -m; a <= m; a++) {
    for (let c = -m; c <= m; c++) {
      const dx = a * s, dz = c * s;
      for (let b = -m; b <= m; b++) {
        const dy = b * s, d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < c2) aligned += pairFactor(d2, h) * dx * dx * dy * dy;
      }
      if (a === 0) continue;
      // The row of layer a at (a s, y, c s), y continuous with line density 1/s.
      for (let k = 0; k < 2 * m * N; k++) {
        const dy = -m * s + ((k + 0.5) * s) / N, d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < c2) sliding += (pairFactor(d2, h) * dx * dx * dy * dy) / N;
      }
    }
  }
  const cell = (2 * h) / M;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < M; j++) {
      for (let k = 0; k < M; k++) {
        const dx = -h + (i + 0.5) * cell, dy = -h + (j + 0.5) * cell, dz = -h + (k + 0.5) * cell, d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < c2) continuum += (pairFactor(d2, h) * dx * dx * dy * dy * cell ** 3) / s ** 3;
      }
    }
  }
  const pairs = ((4 / 3) * Math.PI * c ** 3) / s ** 3;
  console.log(`support ${h} r, pairs within ${c.toFixed(2)} r (${pairs.toFixed(1)} a particle in the continuum): sliding layers / aligned ${(sliding / aligned).toFixed(3)}, continuum / aligned ${(continuum / aligned).toFixed(3)}; K = ${latticeLaplacianConstant(h, s, c).toFixed(2)} (r = 1)`);
}
