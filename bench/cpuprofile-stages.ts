/**
 * A V8 CPU profile of the particle engine (bench/particle-profile.ts --cpu-prof OUT) summed by
 * stage: each sample's time goes to the function `substep` (src/particle/step.ts) called on its
 * stack (inclusive), then to that function's callee, then to the leaf (self time):
 *   npx tsx bench/cpuprofile-stages.ts OUT.cpuprofile [stage function]
 * With a stage function (e.g. applyImplicitViscosity), the samples under it by the two calls below
 * it and the leaf. Shares are of every sample of the profile (the timed frames alone). The stage
 * tables beside SPlisHSPlasH in BENCHMARKS.md group these.
 */
import { readFileSync } from 'node:fs';

interface Frame { functionName: string; url: string; lineNumber: number }
interface Node { id: number; callFrame: Frame; children?: number[] }
const [file, stage] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/cpuprofile-stages.ts OUT.cpuprofile [stage function]');
const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const time = new Map<number, number>();
p.samples.forEach((id, k) => time.set(id, (time.get(id) ?? 0) + (p.timeDeltas[k] ?? 0)));
const name = (f: Frame | undefined) => (f ? `${f.functionName || '(anonymous)'} (${f.url.split('/').pop() || '-'})` : '(self)');
const add = (m: Map<string, number>, k: string, t: number) => m.set(k, (m.get(k) ?? 0) + t);
let total = 0;
const stages = new Map<string, number>(), callees = new Map<string, number>(), leaves = new Map<string, number>(), under = new Map<string, number>();
let inStage = 0;
for (const [id, t] of time) {
  total += t;
  const path: Frame[] = [];
  for (let k: number | undefined = id; k !== undefined; k = parent.get(k)) path.push(byId.get(k)!.callFrame);
  path.reverse();
  const leaf = path[path.length - 1];
  add(leaves, name(leaf), t);
  const s = path.findIndex((f) => f.functionName === 'substep');
  if (s < 0) {
    add(stages, `(outside substep: ${name(leaf)})`, t);
    continue;
  }
  const top = s + 1 < path.length ? name(path[s + 1]) : '(substep self)';
  add(stages, top, t);
  add(callees, `${top} > ${s + 2 < path.length ? name(path[s + 2]) : '(self)'}`, t);
  if (stage && path[s + 1]?.functionName === stage) {
    inStage += t;
    const mid = path.slice(s + 2, -1).map((f) => f.functionName).filter((f) => f && !['runJob', 'run', 'dispatch'].includes(f)).slice(0, 2).join(' > ');
    add(under, `${mid || '(direct)'} | ${name(leaf)}`, t);
  }
}
const print = (title: string, m: Map<string, number>, rows: number) => {
  console.log(title);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${((100 * v) / total).toFixed(2).padStart(7)} %  ${k}`);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms of samples`);
if (stage) {
  console.log(`${stage}: ${((100 * inStage) / total).toFixed(2)} % of the samples`);
  print('under it (calls below it | leaf):', under, 40);
} else {
  print('by stage (inclusive):', stages, 30);
  print('by stage > its callee (inclusive):', callees, 50);
  print('self:', leaves, 40);
}
