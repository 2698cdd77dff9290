/**
 * Where two threads spend CPU that one thread does not: a `perf record` of bench/threads-cpu.ts
 * (one and two threads stepped alternately in one process) split by simulation and thread, and
 * summed by function and by source file. perf's cpu-clock samples land only while a thread holds a
 * core, so the counts are CPU time (0.5 ms a sample at -F 1999) whatever the machine's load. Linux
 * with `perf` and Node's --perf-basic-prof (JavaScript frames by name):
 *
 *   perf record -k CLOCK_MONOTONIC -e cpu-clock -F 1999 -o /tmp/p.data -- \
 *     node --perf-basic-prof --import tsx bench/threads-cpu.ts scenes/honey-drop.json 12 30 2 --marks /tmp/marks.txt
 *   npx tsx bench/perf-split.ts /tmp/p.data /tmp/marks.txt [top]
 *
 * (V8 may leave isolate-*-v8.log files in the current directory: delete them, they are not the project's.)
 *
 * Columns: samples on one thread (the calling thread in the one-thread simulation's frames), on
 * the calling thread and on the spawned thread in the two-thread simulation's frames, and the
 * difference (two threads' less one's). The spawned thread is the thread other than the calling
 * one with the most samples in the two-thread frames; the rest (V8's compiler and GC threads)
 * is counted apart.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [data, marksFile, topS = '40'] = process.argv.slice(2);
if (!data || !marksFile) throw new Error('usage: npx tsx bench/perf-split.ts PERF.data MARKS.txt [top]');
const top = Number(topS);
const wins = readFileSync(marksFile, 'utf8').trim().split('\n').map((l) => {
  const [sim, , a, b] = l.split(' ');
  return { from: Number(BigInt(a)) / 1e9, to: Number(BigInt(b)) / 1e9, team: Number(sim) > 1 };
}).sort((p, q) => p.from - q.from);
const text = execFileSync('perf', ['script', '-i', data, '-F', 'tid,time,ip,sym'], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

function name(sym: string): string {
  let s = sym.replace(/^JS:[*~^+]?/, '').replace(/ file:\/\/\S*?\/src\//, ' ');
  if (/^Builtins_/.test(s) && /Baseline|IC|Interpreter|Bytecode/.test(s)) s = '(baseline code and inline caches)';
  if (/^v8::internal::(compiler|maglev)/.test(s)) s = '(V8 compiler)';
  return s;
}
function file(s: string): string {
  const m = / (\w[\w/.-]*\.ts):/.exec(s);
  if (m) return m[1];
  if (s.includes('Atomics')) return '(Atomics builtins: polls)';
  if (/^(v8::|node::)/.test(s) || s.includes('Serializ')) return '(V8 and Node runtime)';
  if (s.startsWith('(')) return s;
  return '(other native and kernel)';
}

type Counts = Map<string, number>;
const add = (m: Counts, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
let main = '';
const one: Counts = new Map(), byTid = new Map<string, Counts>();
let k = 0;
for (const line of text.split('\n')) {
  const m = /^\s*(\d+)\s+([\d.]+):\s+[0-9a-f]+\s+(.*)$/.exec(line);
  if (!m) continue;
  const [, tid, tS, sym] = m, t = Number(tS);
  if (main === '') main = tid;
  while (k < wins.length && wins[k].to < t) k++;
  if (k >= wins.length) break;
  const w = wins[k];
  if (t < w.from) continue;
  if (!w.team) {
    if (tid === main) add(one, name(sym));
    continue;
  }
  if (!byTid.has(tid)) byTid.set(tid, new Map());
  add(byTid.get(tid)!, name(sym));
}
const total = (m: Counts) => [...m.values()].reduce((s, v) => s + v, 0);
const r0 = byTid.get(main) ?? new Map();
let spawned = '', most = -1;
for (const [tid, m] of byTid) if (tid !== main && total(m) > most) [spawned, most] = [tid, total(m)];
const r1 = byTid.get(spawned) ?? new Map();
const rest = [...byTid].filter(([t]) => t !== main && t !== spawned).reduce((s, [, m]) => s + total(m), 0);
const n1 = total(one), n20 = total(r0), n21 = total(r1);
console.log(`samples: one thread ${n1}; two threads: calling ${n20} + spawned ${n21} = ${n20 + n21} (${((n20 + n21) / n1).toFixed(3)} of one thread's); the process's other threads in the two-thread frames ${rest}`);

function table(title: string, key: (s: string) => string, rows: number): void {
  const g = new Map<string, [number, number, number]>();
  const put = (m: Counts, i: 0 | 1 | 2) => {
    for (const [s, v] of m) {
      const e = g.get(key(s)) ?? [0, 0, 0];
      e[i] += v;
      g.set(key(s), e);
    }
  };
  put(one, 0); put(r0, 1); put(r1, 2);
  console.log(`\n${title.padEnd(64)}    one  two:0  two:1  2T−1T`);
  [...g].sort((p, q) => Math.abs(q[1][1] + q[1][2] - q[1][0]) - Math.abs(p[1][1] + p[1][2] - p[1][0])).slice(0, rows).forEach(([s, [a, b, c]]) => {
    console.log(`${s.slice(0, 64).padEnd(64)} ${String(a).padStart(6)} ${String(b).padStart(6)} ${String(c).padStart(6)} ${(b + c - a >= 0 ? '+' : '') + (b + c - a)}`.replace(/ \+?(-?\d+)$/, (x) => x.padStart(7)));
  });
}
// The serial work: samples on the calling thread in functions the spawned thread never ran in the
// two-thread frames (the stages' own loops between runs, the runner's glue, V8's runtime on that
// thread). A share of one thread's frame (the Amdahl fraction s: two threads reach at most
// 1 / (s + (1 − s) / 2)) and of the calling thread's.
let serial = 0;
const serialTop: [string, number][] = [];
for (const [s, v] of r0) {
  if ((r1.get(s) ?? 0) > 0) continue;
  serial += v;
  serialTop.push([s, v]);
}
const sShare = serial / n1;
console.log(`serial (calling thread only): ${serial} samples, ${(100 * sShare).toFixed(1)} % of one thread's frame (Amdahl's bound ${(1 / (sShare + (1 - sShare) / 2)).toFixed(2)}×), ${(100 * serial / n20).toFixed(1)} % of the calling thread's; largest: ${serialTop.sort((p, q) => q[1] - p[1]).slice(0, 12).map(([s, v]) => `${s.replace(/ particle\/| parallel\/| spatial\//, ' ').replace(/:\d+:\d+$/, '')} ${v}`).join(', ')}`);
table('by source file', file, 30);
table('by function', (s) => s, top);
