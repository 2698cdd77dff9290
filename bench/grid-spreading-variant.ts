/**
 * The Huppert spreading case's grid run (src/compare/validate/spreading.ts, full size, the default
 * tracking only: the markers' run is not checked) with the pressure's free surface switched, as
 * `viscid validate -e grid -c spreading` would read it were the switch the default: ν_eff / ν − 1.
 * VARIANT as bench/grid-rim-seeds.ts's: `ghost=THETA[/AXES[/ACROSS]]`, `frac=LEAST[/AXES[/GHOSTAXES[/AREAS]]]`,
 * `area=LEAST[/GHOSTAXES[/s]]`, `keep=K` (FastMarching.keepSeeds, grid.redistanceSeeds), or `main`.
 *
 *   npx tsx bench/grid-spreading-variant.ts VARIANT
 */
import { PressureSolver } from '../src/grid/pressure.ts';
import { FastMarching } from '../src/grid/redistance.ts';
import '../src/index.ts';
import { measureSpreading } from '../src/compare/validate/spreading.ts';

const variant = process.argv[2] ?? 'main';
const [kind, spec] = variant.split('=');
const parts = (spec ?? '').split('/').map(Number);
/** Sets the variant's switches on a solver (its cell size is set by step.ts before any projection). */
function configure(solver: PressureSolver): void {
  const p = solver.faces;
  if (kind === 'ghost') {
    p.ghostFluid = parts[0];
    if (parts[1] !== undefined) p.ghostAxes = parts[1];
    if (parts[2] !== undefined) p.ghostAcross = parts[2] * p.cellSize;
  } else if (kind === 'frac') {
    p.faceFractions = parts[0];
    if (parts[1] !== undefined) p.fractionAxes = parts[1];
    if (parts[2] !== undefined && parts[2] > 0) { p.ghostFluid = 0.01; p.ghostAxes = parts[2]; }
    if (parts[3] !== undefined) { p.faceAreas = parts[3]; p.areasSurfaceOnly = true; }
  } else if (kind === 'area') {
    p.faceAreas = parts[0];
    p.areasSurfaceOnly = (spec ?? '').split('/')[2] === 's';
    if (parts[1] !== undefined && parts[1] > 0) { p.ghostFluid = 0.01; p.ghostAxes = parts[1]; }
  }
}
const project = PressureSolver.prototype.project;
const done = new WeakSet<PressureSolver>();
PressureSolver.prototype.project = function (this: PressureSolver, ...args: Parameters<typeof project>) {
  if (!done.has(this)) { configure(this); done.add(this); }
  return project.apply(this, args);
};
if (kind === 'keep') {
  // keep=K: the redistancing's seeds keep |φ| (FastMarching.keepSeeds: 1 every seed, 2 beside a solid; grid.redistanceSeeds).
  const redistance = FastMarching.prototype.redistance;
  FastMarching.prototype.redistance = function (this: FastMarching, ...a: Parameters<typeof redistance>) {
    this.keepSeeds = parts[0] as 0 | 1 | 2;
    return redistance.apply(this, a);
  };
}
const nu = 4e-3;
const m = measureSpreading('grid', { nu, radius: 0.03, height: 0.02, seconds: 0.8, particleRadius: 0.0015, cellSize: 0.003, substeps: 48, fitFrom: 0.32 });
console.log(`${variant}: ν_eff / ν − 1 = ${(m.nuEffective / nu - 1).toFixed(3)} (ν_eff ${m.nuEffective.toExponential(3)} m²/s, R² ${m.r2.toFixed(3)}, r(end) ${(100 * m.r[m.r.length - 1]).toFixed(2)} cm)`);
