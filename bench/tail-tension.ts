/**
 * The viscous tension in cup-pour's falling tail against Trouton's: restores a particle run's
 * checkpoint, steps it frame by frame and, across horizontal cuts of the stream at 4, 6, 8 and 10 cm,
 * sums the implicit viscosity's own pair terms, K μ V0 F(|x_ij|) (x_ij)_y (x_ij·v_ij) over the pairs
 * i above the cut and j below it (viscosity-weiler-solve.ts), with the rest volume V0 for every
 * particle, or with `--weiler-volumes` each pair weighed by (V_i/V0)(V_j/V0), V/V0 = ρ0/ρ below the
 * rest density, at most 1/0.3, as Weiler et al. 2018's m_j/ρ_j: the engine's own terms since
 * viscosity-weiler-volumes.ts (the rest volume was the engine's before it), and prints it
 * beside 3 μ A ε̇ (A: the particles within 5 mm of the cut times V0 per cm; ε̇ = ∂v_y/∂y fitted over
 * ±1.5 cm), with ρ/ρ0 there and the weight of a centimetre of tail. Honey, 2 mm particles, support 5 r.
 *   node bin/viscid.js run scenes/cup-pour.json -e particle -o out/cup50 -f 50 --mesh none --checkpoint-every 50
 *   npx tsx bench/tail-tension.ts out/cup50/particle 58 [--weiler-volumes]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { restoreSimulation } from '../src/index.ts';
import { pairFactor } from '../src/particle/viscosity-weiler-product.ts';
import { latticeLaplacianConstant } from '../src/particle/viscosity-weiler.ts';

const argv = process.argv.slice(2);
const dir = argv[0], to = Number(argv[1] ?? 58), weiler = argv.includes('--weiler-volumes');
if (!dir) throw new Error('usage: npx tsx bench/tail-tension.ts <run dir with checkpoint.vscd> [to frame] [--weiler-volumes]');
const ck = readdirSync(dir).filter((f) => f.includes('checkpoint')).sort().pop();
if (!ck) throw new Error(`no checkpoint in ${dir}`);
const sim = restoreSimulation(new Uint8Array(readFileSync(`${dir}/${ck}`)));
const r = 0.002, h = 5 * r, V0 = (2 * r) ** 3, mu = 5, density = 1420, K = latticeLaplacianConstant(h, 2 * r);
const ratio = (d: number): number => (weiler && d < 1 ? 1 / Math.max(0.3, d) : 1);
console.log(`from frame ${sim.frame} to ${to}, ${weiler ? 'volumes m/ρ below the rest density' : 'rest volumes (the engine)'}, load ${loadavg()[0].toFixed(1)}`);
while (sim.frame < to) {
  sim.stepFrame();
  const p = sim.fluidPoints(), P = p.positions, V = p.velocities, D = p.densities!;
  // The stream between the cup's lip and the pile (tests/particle/rope-components.ts ROPE_WINDOWS['cup-pour'], a little taller).
  const tail: number[] = [];
  for (let i = 0; i < p.count; i++) {
    const x = P[3 * i], y = P[3 * i + 1], z = P[3 * i + 2];
    if (x > 0 && x < 0.14 && y > 0.02 && y < 0.115 && Math.abs(z) < 0.05) tail.push(i);
  }
  console.log(`frame ${sim.frame}: ${tail.length} particles in the stream`);
  for (const cut of [0.04, 0.06, 0.08, 0.1]) {
    let T = 0, near = 0, dens = 0, m = 0, sy = 0, sv = 0, syy = 0, syv = 0;
    for (const i of tail) {
      const yi = P[3 * i + 1];
      if (Math.abs(yi - cut) < 0.015) { m++; sy += yi; sv += V[3 * i + 1]; syy += yi * yi; syv += yi * V[3 * i + 1]; }
      if (Math.abs(yi - cut) < 0.005) { near++; dens += D[i]; }
      if (yi <= cut) continue;
      for (const j of tail) {
        if (P[3 * j + 1] > cut) continue;
        const dx = P[3 * i] - P[3 * j], dy = yi - P[3 * j + 1], dz = P[3 * i + 2] - P[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= h * h) continue;
        const xv = dx * (V[3 * i] - V[3 * j]) + dy * (V[3 * i + 1] - V[3 * j + 1]) + dz * (V[3 * i + 2] - V[3 * j + 2]);
        T += ratio(D[i]) * ratio(D[j]) * K * mu * V0 * pairFactor(d2, h) * dy * xv;
      }
    }
    if (m < 4 || near === 0) {
      console.log(`  cut ${cut * 100} cm: too few particles`);
      continue;
    }
    const strain = (m * syv - sy * sv) / (m * syy - sy * sy), A = (near * V0) / 0.01, trouton = 3 * mu * A * strain;
    console.log(
      `  cut ${cut * 100} cm: ρ/ρ0 ${(dens / near).toFixed(2)}, ε̇ ${strain.toFixed(1)}/s, tension ${(T * 1e3).toFixed(2)} mN, ` +
        `3μAε̇ ${(trouton * 1e3).toFixed(2)} mN, ratio ${(T / trouton).toFixed(2)}, weight of 1 cm ${(near * V0 * density * 9.81 * 1e3).toFixed(1)} mN`,
    );
  }
}
