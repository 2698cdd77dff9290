/**
 * Laps of a bench's CPU time: the process's (every thread), the main thread's alone and the wall
 * clock since the last lap, printed with what the lap was. The main thread's time comes from
 * /proc/self/task/PID/stat (utime + stime, clock ticks of 10 ms), so Linux only.
 */
import { readFileSync } from 'node:fs';

const mainCpu = () => { const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

/** A lap printer whose first lap counts from now. */
export function cpuLaps(): (what: string) => void {
  let c0 = cpu(), m0 = mainCpu(), w0 = performance.now();
  return (what: string) => {
    const c = cpu(), m = mainCpu(), w = performance.now();
    console.log(`${what}: ${(c - c0).toFixed(2)} s CPU (main thread ${(m - m0).toFixed(2)}), ${((w - w0) / 1000).toFixed(2)} s wall`);
    c0 = c; m0 = m; w0 = w;
  };
}
