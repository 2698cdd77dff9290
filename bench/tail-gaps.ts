/**
 * Where cup-pour's tail parts: restores a checkpoint, steps to each frame asked and prints, along the
 * stream in the rope window (tests/particle/rope-components.ts ROPE_WINDOWS['cup-pour']), each
 * particle's height, speed and ρ/ρ0 and its nearest neighbour's distance, and the gaps wider than the
 * link (5 r): which pieces, where, how fast each falls.
 *   npx tsx bench/rope-components.ts cup-pour 33 --save out/cup33.vscd --save-at 33
 *   npx tsx bench/tail-gaps.ts out/cup33.vscd 50 51 … 66 [--quiet (the necks only)]
 */
import { readFileSync } from 'node:fs';
import { restoreSimulation } from '../src/index.ts';
import { ROPE_WINDOWS } from '../tests/particle/rope-components.ts';
import { pairFactor } from '../src/particle/viscosity-weiler-product.ts';
import { latticeLaplacianConstant } from '../src/particle/viscosity-weiler.ts';
import { volumeRatios } from '../src/particle/viscosity-weiler-volumes.ts';

const [file, ...framesArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const frames = framesArg.map(Number);
const sim = restoreSimulation(new Uint8Array(readFileSync(file)));
const win = ROPE_WINDOWS['cup-pour'], r = 0.002, link = 5 * r, h = 5 * r, V0 = (2 * r) ** 3, mu = 5, rho0 = 1420;
const K = latticeLaplacianConstant(h, 2 * r);
const quiet = process.argv.includes('--quiet');
while (sim.frame < Math.max(...frames)) {
  sim.stepFrame();
  if (!frames.includes(sim.frame)) continue;
  const p = sim.fluidPoints(), P = p.positions, V = p.velocities, D = p.densities!;
  const inWin: number[] = [];
  for (let i = 0; i < p.count; i++) {
    let ok = true;
    for (let a = 0; a < 3; a++) if (P[3 * i + a] < win.min[a] || P[3 * i + a] > win.max[a]) ok = false;
    if (ok) inWin.push(i);
  }
  inWin.sort((a, b) => P[3 * b + 1] - P[3 * a + 1]);
  console.log(`frame ${sim.frame}: ${inWin.length} in the window`);
  neck(P, V, D, p.count, inWin);
  if (!quiet) for (const i of inWin) {
    let nn = Infinity;
    for (let j = 0; j < p.count; j++) {
      if (j === i) continue;
      const d = Math.hypot(P[3 * i] - P[3 * j], P[3 * i + 1] - P[3 * j + 1], P[3 * i + 2] - P[3 * j + 2]);
      if (d < nn) nn = d;
    }
    console.log(
      `  x ${(P[3 * i] * 1e3).toFixed(1)} y ${(P[3 * i + 1] * 1e3).toFixed(1)} z ${(P[3 * i + 2] * 1e3).toFixed(1)} mm, v (${V[3 * i].toFixed(3)}, ${V[3 * i + 1].toFixed(3)}) m/s, ρ/ρ0 ${D[i].toFixed(2)}, nearest ${(nn * 1e3).toFixed(1)} mm${nn > link ? '  GAP' : ''}`,
    );
  }
}

/**
 * The neck: the largest jump in v_y (the lower particle the faster) between particles of the window
 * taken in order of height, above 4 cm (the pile's splash below); across
 * the cut midway, the implicit viscosity's pair tension (its own terms, with the volumes q) against
 * Trouton's 3 μ A ε̇ for the neck (A: the particles within 5 mm of the cut times V0 per cm; ε̇: the
 * mean v_y within 1 cm above minus that within 1 cm below, over the distance of their mean heights),
 * and the weight of the liquid below the cut in the window.
 */
function neck(P: Float32Array | Float64Array, V: Float32Array | Float64Array, D: Float32Array, n: number, inWin: number[]): void {
  let best = 0, cut = NaN;
  for (let k = 1; k < inWin.length; k++) {
    const a = inWin[k - 1], b = inWin[k], jump = V[3 * a + 1] - V[3 * b + 1];
    if (P[3 * b + 1] > 0.04 && jump > best) { best = jump; cut = (P[3 * a + 1] + P[3 * b + 1]) / 2; }
  }
  if (!(best > 0)) return;
  const q = new Float64Array(n);
  volumeRatios(D, n, q);
  let T = 0, near = 0, below = 0, nu = 0, nd = 0, yu = 0, yd = 0, vu = 0, vd = 0;
  for (const i of inWin) {
    const yi = P[3 * i + 1];
    if (Math.abs(yi - cut) < 0.005) near++;
    if (yi < cut) below++;
    if (yi > cut && yi < cut + 0.01) { nu++; yu += yi; vu += V[3 * i + 1]; }
    if (yi < cut && yi > cut - 0.01) { nd++; yd += yi; vd += V[3 * i + 1]; }
    if (yi <= cut) continue;
    for (let j = 0; j < n; j++) {
      if (P[3 * j + 1] > cut) continue;
      const dx = P[3 * i] - P[3 * j], dy = yi - P[3 * j + 1], dz = P[3 * i + 2] - P[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= h * h) continue;
      const xv = dx * (V[3 * i] - V[3 * j]) + dy * (V[3 * i + 1] - V[3 * j + 1]) + dz * (V[3 * i + 2] - V[3 * j + 2]);
      T += q[i] * q[j] * K * mu * V0 * pairFactor(d2, h) * dy * xv;
    }
  }
  const strain = nu && nd ? (vu / nu - vd / nd) / (yu / nu - yd / nd) : NaN, A = (near * V0) / 0.01, trouton = 3 * mu * A * strain;
  console.log(
    `  neck at y ${(cut * 1e3).toFixed(1)} mm: jump ${best.toFixed(3)} m/s, ${near} particles within 5 mm, ε̇ ${strain.toFixed(1)}/s, ` +
      `tension ${(T * 1e3).toFixed(2)} mN, Trouton's ${(trouton * 1e3).toFixed(2)} mN (ratio ${(T / trouton).toFixed(2)}), ` +
      `weight below in the window ${(below * rho0 * V0 * 9.81 * 1e3).toFixed(1)} mN (${below} particles)`,
  );
}
