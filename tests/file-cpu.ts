/**
 * Each test file's CPU, for finding where the suite's time goes (docs/decisions.md, "The test
 * suite, twelfth pass"). A setup file that vitest.config.ts adds only when VISCID_FILE_CPU names
 * a file: `VISCID_FILE_CPU=/tmp/cpu.tsv npx vitest run tests/gpu`. It appends one line a test
 * file: its path, the CPU seconds of its worker process from its first hook to its last (the
 * engines' worker threads and Dawn's included), the CPU of the child processes it waited for
 * (spawned CLIs, tsx contenders, npm), the wall seconds, the load average at its end, and the
 * Chromiums' CPU. Read from
 * /proc/self/stat (utime, stime, cutime, cstime; USER_HZ 100), so Linux only. A last column, the
 * CPU of the Chromium processes over the same span (chromiumCpu below), is the browser files'
 * cost beside their own: the shared Chromium is the global setup's, which prints its total when it
 * closes it. The JSON
 * reporter's per-file times are wall, which a shared machine's load stretches several times over.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

const OUT = process.env.VISCID_FILE_CPU;
/**
 * VISCID_TEST_CPU=FILE beside it: one line a test as well, in FILE: the file, the test's full
 * name, its CPU (own, waited-for children) and wall seconds from its beforeEach hooks to its
 * afterEach ones (a file's beforeAll, such as a page opened or a shared run made on first use, is
 * in the test that first asks for it, or in neither).
 */
const TESTS = process.env.VISCID_TEST_CPU;

/** [own, waited-for children] CPU seconds of this process. */
function cpu(): [number, number] {
  const s = readFileSync('/proc/self/stat', 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
  return [(Number(f[11]) + Number(f[12])) / 100, (Number(f[13]) + Number(f[14])) / 100];
}

/**
 * The CPU seconds of the Chromiums this file can use: the run's shared one (a child of vitest's
 * main process, tests/e2e/app-server.ts) and any this worker started (tests/e2e/webgpu.test.ts's),
 * each with its descendants, the ended ones it reaped included (/proc/PID/stat utime, stime,
 * cutime, cstime). The shared one serves both workers: where another browser file runs at the same
 * time its CPU is in both rows. A file's own Chromium has ended by the file's row (its afterAll
 * closes it), so it is in that row's waited-for children's column instead; a test's row has it.
 * Each reading scans /proc (about 4 ms of CPU with ~90 processes), the first of a span's two
 * inside it: a row's own CPU reads one scan more than the test or file used.
 */
function chromiumCpu(): number {
  const procs = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      procs.set(Number(entry), { ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // ended meanwhile
    }
  }
  let ticks = 0;
  const todo = [...procs].filter(([, p]) => p.comm.startsWith('chromium') && (p.ppid === process.ppid || p.ppid === process.pid)).map(([pid]) => pid);
  while (todo.length) {
    const pid = todo.pop()!;
    ticks += procs.get(pid)!.ticks;
    for (const [child, p] of procs) if (p.ppid === pid) todo.push(child);
  }
  return ticks / 100;
}

type Mark = [[number, number], number, number];

/** A mark to measure from: this process's CPU, the wall clock and the Chromiums' CPU. */
function mark(): Mark {
  return [cpu(), performance.now(), chromiumCpu()];
}

/** Own CPU, waited-for children's CPU (s), wall (s) and the Chromiums' CPU (s) since `m`, as the rows print them. */
function since(m: Mark): string[] {
  const end = cpu();
  const chromium = Math.max(0, chromiumCpu() - m[2]);
  return [(end[0] - m[0][0]).toFixed(2), (end[1] - m[0][1]).toFixed(2), ((performance.now() - m[1]) / 1000).toFixed(1), chromium.toFixed(2)];
}

/** This test file's path from tests/. */
const testFile = (): string => (expect.getState().testPath ?? '?').replace(/^.*?\/tests\//, 'tests/');

if (OUT) {
  let file0 = mark();
  beforeAll(() => {
    file0 = mark();
  });
  afterAll(() => {
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const [own, children, wall, chromium] = since(file0);
    appendFileSync(OUT, [testFile(), own, children, wall, load, chromium].join('\t') + '\n');
  });
  if (TESTS) {
    let test0 = mark();
    beforeEach(() => {
      test0 = mark();
    });
    afterEach(() => {
      appendFileSync(TESTS, [testFile(), expect.getState().currentTestName ?? '?', ...since(test0)].join('\t') + '\n');
    });
  }
}
