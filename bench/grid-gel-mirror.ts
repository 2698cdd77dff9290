/**
 * Mirror test of the grid's elastic force: a gel ball dropped onto the floor at the middle of a
 * box symmetric about x = 0 and z = 0 (the box's middle on a cell face, or on a cell centre with
 * --centre) should land and settle with its centre of mass at x = z = 0; a drift that has the same
 * sign on every run is the method's, not the flow's. Prints the centre of mass (x, z, mm) per frame.
 *
 *   npx tsx bench/grid-gel-mirror.ts cells|fractions [frames] [--yield] [--centre] [--tracking levelset|markers|particle-levelset] [--floor F]
 */
import { createSimulation, parseScene } from '../src/index.ts';

const args = process.argv.slice(2);
const opt = (k: string, d: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const plain = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--t') && !args[i - 1]?.startsWith('--f'));
const surface = plain[0] ?? 'cells', frames = Number(plain[1] ?? 30);
const h = 0.01, half = args.includes('--centre') ? 0.105 : 0.1;
const json: Record<string, any> = {
  fps: 30, duration: frames / 30,
  domain: { min: [-half, 0, -half], max: [half, 0.2, half], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { gel: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, grid: { viscosityModel: 'implicit' },
    viscoelastic: args.includes('--plain') ? { elasticModulus: 0, elasticLimit: 5, yieldRate: 100, decay: 0 } : args.includes('--yield') ? { elasticModulus: 1000, elasticLimit: 0.3, yieldRate: 10, decay: 1 } : { elasticModulus: 3000, elasticLimit: 5, yieldRate: 100, decay: 0 } } },
  bodies: [{ material: 'gel', shape: { type: 'sphere', center: [0, 0.07, 0], radius: 0.03 } }],
  grid: { cellSize: h, tracking: opt('--tracking', 'levelset'), elasticSurface: surface },
};
const sim = createSimulation(parseScene(json), 'grid') as any;
if (args.includes('--floor')) sim.ext.viscoelastic.fractionFloor = Number(opt("--floor", "0.05"));
const rows: string[] = [];
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  const c = sim.metrics().centerOfMass;
  rows.push(`${f}: ${(1000 * c[0]).toFixed(2)},${(1000 * c[2]).toFixed(2)} y ${(1000 * c[1]).toFixed(1)}`);
}
console.log(`${surface} ${args.join(' ')}\n${rows.join('\n')}`);
