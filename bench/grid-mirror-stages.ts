/**
 * Where the grid's step breaks the x-mirror symmetry: a gel ball dropped in the middle of a box
 * symmetric about x = 0 (the middle on a cell face), every stage wrapped so that after it runs the
 * largest mirror defect of u, φ and the strain E is read (u_x(i) against −u_x(n − i), u_y(i) against
 * u_y(n − 1 − i), E12 and E13 on the x-min edges against −E at n − i, …), over the cells whose mirror
 * exists, relative to the field's largest value; and the cells whose mirror is missing.
 *
 *   npx tsx bench/grid-mirror-stages.ts cells|fractions [frames] [--plain] [--yield] [--tracking T]
 */
import { createSimulation, parseScene } from '../src/index.ts';

const args = process.argv.slice(2);
const opt = (k: string, d: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const plain = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--t'));
const surface = plain[0] ?? 'cells', frames = Number(plain[1] ?? 6);
const json: Record<string, any> = {
  fps: 30, duration: frames / 30,
  domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { gel: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, grid: { viscosityModel: 'implicit' },
    viscoelastic: args.includes('--plain') ? { elasticModulus: 0, elasticLimit: 5, yieldRate: 100, decay: 0 } : args.includes('--yield') ? { elasticModulus: 1000, elasticLimit: 0.3, yieldRate: 10, decay: 1 } : { elasticModulus: 3000, elasticLimit: 5, yieldRate: 100, decay: 0 } } },
  bodies: [{ material: 'gel', shape: { type: 'sphere', center: [0, 0.07, 0], radius: 0.03 } }],
  grid: { cellSize: 0.01, tracking: opt('--tracking', 'levelset'), elasticSurface: surface },
};
const top = createSimulation(parseScene(json), 'grid') as any, sim = top.sim;
const N = sim.d.n[0], band = Number(opt('--band', '1e9')) * sim.d.h;

/** Largest |f(c) − sign f(mirror c)| over cells with a mirror, over max |f|; the mirror is n − 1 − i (shift 0) or n − i (shift 1). */
function defect(f: Float64Array, shift: number, sign: number, typeOnly = false): [number, number, number] {
  const s = sim.store;
  let worst = 0, big = 0, missing = 0; at = '';
  for (let c = 0; c < s.count; c++) {
    const m = s.find(N - 1 + shift - s.ci[c], s.cj[c], s.ck[c]);
    if (m < 0) { missing++; continue; }
    if (Math.abs(s.phi[c]) > band && Math.abs(s.phi[m]) > band) continue;
    const d = typeOnly ? (s.type[c] !== s.type[m] ? 1 : 0) : Math.abs(f[c] - sign * f[m]);
    if (d > worst) { worst = d; at = `(${s.ci[c]},${s.cj[c]},${s.ck[c]} t${s.type[c]} ${f[c].toExponential(3)} vs ${f[m].toExponential(3)})`; }
    if (Math.abs(f[c]) > big) big = Math.abs(f[c]);
  }
  return [worst, big, missing];
}
let at = '';
const fmt = ([w, b]: [number, number, number]) => (b > 0 ? `${w.toExponential(1)}/${b.toExponential(1)}` + (args.includes('--at') ? at : '') : '-');
const seen = new Map<string, string>();
let step = 0;
for (const stage of sim.pipeline) {
  const run = stage.run;
  stage.run = (sm: any, dt: number) => {
    if (args.includes('--symmetrize') && stage.name === 'redistance') {
      const s = sim.store;
      for (let c = 0; c < s.count; c++) {
        const m = s.find(N - 1 - s.ci[c], s.cj[c], s.ck[c]);
        if (m > c) { const v = 0.5 * (s.phi[c] + s.phi[m]); s.phi[c] = v; s.phi[m] = v; }
      }
    }
    const dumpNow = args.includes('--dump') && stage.name === 'redistance' && sim.steps >= Number(opt('--dump', '0'));
    const before = dumpNow ? sim.store.phi.slice() : null;
    run.call(stage, sm, dt);
    if (before) {
      const s = sim.store;
      for (let c = 0; c < s.count; c++) {
        const m = s.find(N - 1 - s.ci[c], s.cj[c], s.ck[c]);
        if (m < 0 || m <= c) continue;
        const dOut = Math.abs(s.phi[c] - s.phi[m]), dIn = Math.abs(before[c] - before[m]);
        if (dIn > 0 || dOut > 1e-6) console.log(`  ${sim.steps} (${s.ci[c]},${s.cj[c]},${s.ck[c]}) t${s.type[c]} in ${before[c].toExponential(6)} d ${(before[c] - before[m]).toExponential(2)}  out ${s.phi[c].toExponential(6)} ${s.phi[m].toExponential(6)}`);
      }
    }
    const s = sim.store;
    const ve = sim.ext.viscoelastic;
    const parts = [
      `ux ${fmt(defect(s.u[0], 1, -1))}`, `uy ${fmt(defect(s.u[1], 0, 1))}`, `uz ${fmt(defect(s.u[2], 0, 1))}`,
      `phi ${fmt(defect(s.phi, 0, 1))}`, `type ${defect(s.phi, 0, 1, true)[0]}`,
    ];
    if (ve && ve.E.store === s) {
      const E = ve.E.data;
      parts.push(`E11 ${fmt(defect(E[0], 0, 1))}`, `E22 ${fmt(defect(E[1], 0, 1))}`, `E12 ${fmt(defect(E[3], 1, -1))}`, `E13 ${fmt(defect(E[4], 1, -1))}`, `E23 ${fmt(defect(E[5], 0, 1))}`);
    }
    parts.push(`missing ${defect(s.phi, 0, 1)[2]}`);
    const line = parts.join(' ');
    if (seen.get(stage.name) !== line || step % 20 === 0) console.log(`step ${step} ${stage.name}: ${line}`);
    seen.set(stage.name, line);
  };
}
for (let f = 1; f <= frames; f++) {
  const before = sim.steps;
  top.stepFrame();
  step = sim.steps;
  const c = top.metrics().centerOfMass;
  console.log(`frame ${f} (${sim.steps - before} steps): centre ${(1000 * c[0]).toFixed(3)}, ${(1000 * c[2]).toFixed(3)} mm`);
}
