/**
 * The tension a stretching liquid carries in the particle engine against Trouton's 3 μ A ε̇, at each
 * radius asked: threads 1, 2 and 3 particles across, a block on the lattice's axes and turned off
 * them, incompressible and uniaxial stretches, and a one-particle thread drawn out to 1.25–2.25
 * lattice spacings (a neck of a falling stream). The cases and what is measured:
 * tests/particle/stretch.ts.
 *   npx tsx bench/trouton-stretch.ts [radius mm ...]   (default 1 2)
 */
import { loadavg } from 'node:os';
import { stretchTension, type StretchMode, type StretchOptions } from '../tests/particle/stretch.ts';

const radii = process.argv.slice(2).map(Number).filter((x) => x > 0);

function line(mm: number, across: number, mode: StretchMode, o: StretchOptions = {}): void {
  const t = stretchTension(mm / 1000, across, mode, o);
  const what = across > 3 ? `block ${across}×16×${across}${o.turned ? ' turned' : ''}` : `thread ${across}×${across}${o.drawn ? ` drawn ×${o.drawn}` : ''}`;
  console.log(
    `r ${mm} mm, ${what}, ${mode}: ρ/ρ0 ${t.density.toFixed(2)} at the plane; of Trouton's (${(t.trouton * 1e3).toFixed(3)} mN): ` +
      `operator ${t.operator.toFixed(3)} (rest volumes ${t.restVolumes.toFixed(3)}), engine ${t.engine.toFixed(3)}`,
  );
}

console.log(`load ${loadavg()[0].toFixed(1)}`);
for (const mm of radii.length ? radii : [1, 2]) {
  for (const across of [1, 2, 3, 12]) for (const mode of ['incompressible', 'uniaxial'] as const) line(mm, across, mode);
  for (const mode of ['incompressible', 'uniaxial'] as const) line(mm, 12, mode, { turned: true });
  for (const drawn of [1.25, 1.5, 1.75, 2, 2.25]) line(mm, 1, 'uniaxial', { drawn });
}
