/**
 * What a sleeping waiter's wake-up costs, and what a poll before the sleep buys, on this machine:
 * two threads (this one and a worker_thread) hand a token back and forth as a team's barrier does
 * (src/parallel/wait.ts), each turn a stretch of busy work of a random length (the "phase") on the
 * thread that holds it while the other waits for it: polling for up to SPIN µs, then asleep in
 * Atomics.wait. Per SPIN it prints the wake latency of the waits that slept (from the holder's
 * store-and-notify to the waiter running again: percentiles; on a loaded machine the low ones are
 * the quiet machine's), how many waits slept, and the wall time a round beside the work's.
 *   npx tsx bench/wake-latency.ts [rounds] [phaseMinUs] [phaseMaxUs] [spins µs, comma-separated]
 * (defaults: 2000 rounds, phases 20–300 µs, spins 0,2,50,200,1000). The spins are interleaved in
 * blocks of 100 rounds, so a change in the machine's load falls on each alike.
 */
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';

const [roundsS = '2000', loS = '20', hiS = '300', spinsS = '0,2,50,200,1000'] = process.argv.slice(2);
const rounds = Number(roundsS), lo = Number(loS), hi = Number(hiS);
const spins = spinsS.split(',').map(Number);

// ctrl: 0 turn (whose token: 0 main, 1 worker), 1 spin µs, 2 stop; stamp: 0 time of the hand-over.
const ctrlBuf = new SharedArrayBuffer(16), stampBuf = new SharedArrayBuffer(8 * 8);
const ctrl = new Int32Array(ctrlBuf), stamp = new Float64Array(stampBuf);
// Latency records: the worker's and main's (wake µs, slept 0/1) per hand-over it received.
const CAP = 4 * rounds * spins.length;
const recBuf = new SharedArrayBuffer(8 * CAP * 2), rec = new Float64Array(recBuf);
const countBuf = new SharedArrayBuffer(8), count = new Int32Array(countBuf);

// One source for both threads: the wait and the busy phase.
const common = `
const now = () => performance.timeOrigin + performance.now();
function busy(us) { const t = performance.now() + us / 1000; let x = 0; while (performance.now() < t) x++; return x; }
/** Waits while ctrl[0] === v: polls spinUs, then sleeps; returns [slept, wake µs]. */
function wait(ctrl, stamp, v, spinUs) {
  const t0 = performance.now();
  for (;;) {
    for (let k = 0; k < 64; k++) if (Atomics.load(ctrl, 0) !== v) return 0;
    if (performance.now() - t0 > spinUs / 1000) break;
  }
  // Slept: Atomics.wait put the thread to sleep and a notify woke it (a poll that ran out while the
  // thread was off its core, its word changed meanwhile, caught it after all).
  let slept = 0;
  while (Atomics.load(ctrl, 0) === v) if (Atomics.wait(ctrl, 0, v, 200) === 'ok') slept = 1;
  return slept;
}
function record(rec, count, slept, stamp) {
  const at = Atomics.add(count, 0, 1);
  rec[2 * at] = (now() - stamp[0]) * 1000;
  rec[2 * at + 1] = slept;
}
`;
const workerCode = `
const { workerData } = require('node:worker_threads');
${common}
const ctrl = new Int32Array(workerData.ctrl), stamp = new Float64Array(workerData.stamp);
const rec = new Float64Array(workerData.rec), count = new Int32Array(workerData.count);
const lo = workerData.lo, hi = workerData.hi;
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
for (;;) {
  const slept = wait(ctrl, stamp, 0, Atomics.load(ctrl, 1));
  if (Atomics.load(ctrl, 2) !== 0) break;
  record(rec, count, slept, stamp);
  busy(lo + (hi - lo) * rand());
  stamp[0] = now();
  Atomics.store(ctrl, 0, 0);
  Atomics.notify(ctrl, 0);
}
`;
const w = new Worker(workerCode, { eval: true, workerData: { ctrl: ctrlBuf, stamp: stampBuf, rec: recBuf, count: countBuf, lo, hi } });
await new Promise((r) => setTimeout(r, 300));

const fn = new Function('ctrl', 'stamp', 'rec', 'count', 'lo', 'hi', 'spins', 'rounds',
  `${common}
  let seed = 777;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  const out = spins.map(() => ({ wall: 0, work: 0, n: 0, from: [] }));
  for (let block = 0; block < rounds / 100; block++) {
    for (let s = 0; s < spins.length; s++) {
      Atomics.store(ctrl, 1, spins[s]);
      const t0 = performance.now(), first = Atomics.load(count, 0);
      let work = 0;
      for (let r = 0; r < 100; r++) {
        const d = lo + (hi - lo) * rand();
        const b0 = performance.now(); busy(d); work += performance.now() - b0;
        stamp[0] = now();
        Atomics.store(ctrl, 0, 1);
        Atomics.notify(ctrl, 0);
        const slept = wait(ctrl, stamp, 1, spins[s]);
        record(rec, count, slept, stamp);
      }
      out[s].wall += performance.now() - t0;
      out[s].work += work;
      out[s].n += 100;
      out[s].from.push([first, Atomics.load(count, 0)]);
    }
  }
  return out;`);
const load0 = loadavg()[0];
const cpu0 = process.cpuUsage();
const out = fn(ctrl, stamp, rec, count, lo, hi, spins, rounds) as { wall: number; work: number; n: number; from: [number, number][] }[];
const cpu = process.cpuUsage(cpu0);
Atomics.store(ctrl, 2, 1);
Atomics.store(ctrl, 0, 1);
Atomics.notify(ctrl, 0);
await w.terminate();
const pct = (x: number[], p: number) => (x.length ? x[Math.min(x.length - 1, Math.floor(p * x.length))] : NaN);
console.log(`wake latency, phases ${lo}–${hi} µs on each thread in turn, ${rounds} rounds a spin; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}; process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
console.log('spin µs   wall/round µs  work/round µs  slept %   wake of the slept (µs): p5   p25   p50   p90     wake of the caught: p50');
out.forEach((o, s) => {
  const sl: number[] = [], ca: number[] = [];
  for (const [a, b] of o.from) for (let k = a; k < b; k++) (rec[2 * k + 1] ? sl : ca).push(rec[2 * k]);
  sl.sort((p, q) => p - q);
  ca.sort((p, q) => p - q);
  const n = sl.length + ca.length;
  console.log(
    `${String(spins[s]).padStart(7)} ${((1000 * o.wall) / o.n).toFixed(0).padStart(13)} ${((1000 * o.work) / o.n).toFixed(0).padStart(14)} ${((100 * sl.length) / n).toFixed(0).padStart(8)}` +
      `   ${[0.05, 0.25, 0.5, 0.9].map((p) => pct(sl, p).toFixed(0).padStart(5)).join(' ')}   ${pct(ca, 0.5).toFixed(1).padStart(10)}`,
  );
});
process.exit(0);
