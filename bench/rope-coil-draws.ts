/**
 * Rope coiling as a distribution: runs the rope-coiling case's full pour (3 s at 60 frames a second,
 * fitted from 1 s; src/compare/validate/rope-coiling.ts) once per draw of coilDraw (the spout's centre
 * moved 10 µm off the axis towards k golden angles; draw 0 is the case's own run), on one thread, and
 * prints each draw's turns, Ω, R², Ω over its regime's scale and whether the case's checks pass, then
 * the share that passes. `--out DIR` writes each draw's frames (the lower end's angle, offset, height,
 * a₁, U₁) as DIR/ENGINE-draw-K.json for reading a failing draw frame by frame.
 *
 *   npx tsx bench/rope-coil-draws.ts --engine particle --draws 0-19 [--seconds 3 --from 1] [--set spoutY=0.13 …] [--out DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import '../src/index.ts';
import { HONEY_COIL, coilDraw, measureRopeCoiling, omegaRatio, steadyCoilChecks, type HoneyCoilPour } from '../src/compare/validate/rope-coiling.ts';
import type { EngineName } from '../src/api.ts';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const engine = opt('engine', 'particle') as EngineName;
const [d0, d1] = opt('draws', '0-9').split('-').map(Number);
const seconds = Number(opt('seconds', '3')), from = Number(opt('from', '1')), fps = Number(opt('fps', '60'));
const out = opt('out', '');
// --set key=value (repeatable): the pour's numbers changed (HONEY_COIL's keys: spoutY, speed, spoutRadius, viscosityPas, …).
const pour: Record<string, number> = { ...HONEY_COIL };
args.forEach((a, i) => {
  if (a !== '--set') return;
  const [key, value] = args[i + 1].split('=');
  if (!(key in pour)) throw new Error(`--set ${key}: not one of ${Object.keys(pour).join(', ')}`);
  pour[key] = Number(value);
});
const tag = args.includes('--set') ? `${engine}-${args.filter((_, i) => args[i - 1] === '--set').join('-')}` : engine;
console.log(JSON.stringify({ engine, seconds, from, fps, pour }));
if (out) mkdirSync(out, { recursive: true });

let passed = 0, n = 0;
for (let k = d0; k <= (d1 ?? d0); k++) {
  const c0 = process.cpuUsage();
  const m = measureRopeCoiling(engine, seconds, from, fps, k, pour as HoneyCoilPour);
  const cpu = process.cpuUsage(c0);
  const checks = steadyCoilChecks(m), ok = checks.every((c) => c.passed);
  n++;
  if (ok) passed++;
  const { dx, dz } = coilDraw(k);
  console.log(`${engine} draw ${k} spout (${(1e6 * dx).toFixed(1)}, ${(1e6 * dz).toFixed(1)}) µm: turns ${m.turns.toFixed(2)} omega ${m.omega.toFixed(2)} r2 ${m.r2.toFixed(3)} ratio ${omegaRatio(m).toFixed(2)} ${m.scales.regime} a1 ${(1000 * m.a1).toFixed(2)} mm u1 ${m.u1.toFixed(3)} H ${(100 * m.fallHeight).toFixed(2)} cm ${ok ? 'PASS' : 'FAIL'} cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
  if (out) writeFileSync(`${out}/${tag}-draw-${k}.json`, JSON.stringify(m.frames.map((f) => [f.t, f.angle, f.offset, f.yTop, f.a1, f.u1].map((x) => (Number.isFinite(x) ? Math.round(x * 1e5) / 1e5 : null)))));
}
console.log(`${engine}: ${passed} of ${n} draws pass`);
