/**
 * Each test file's CPU, for finding where the suite's time goes (docs/decisions.md, "The test
 * suite, twelfth pass"). A setup file that vitest.config.ts adds only when VISCID_FILE_CPU names
 * a file: `VISCID_FILE_CPU=/tmp/cpu.tsv npx vitest run tests/gpu`. It appends one line a test
 * file: its path, the CPU seconds of its worker process from its first hook to its last (the
 * engines' worker threads and Dawn's included), the CPU of the child processes it waited for
 * (spawned CLIs, tsx contenders, npm), the wall seconds, and the load average at its end. Read from
 * /proc/self/stat (utime, stime, cutime, cstime; USER_HZ 100), so Linux only. Chromium's processes
 * are the global setup's, not a file's: it prints their total when it closes them. The JSON
 * reporter's per-file times are wall, which a shared machine's load stretches several times over.
 */
import { appendFileSync, readFileSync } from 'node:fs';
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

/** A mark to measure from: this process's CPU and the wall clock. */
function mark(): [[number, number], number] {
  return [cpu(), performance.now()];
}

/** Own CPU, waited-for children's CPU (s) and wall (s) since `m`, as the rows print them. */
function since(m: [[number, number], number]): string[] {
  const end = cpu();
  return [(end[0] - m[0][0]).toFixed(2), (end[1] - m[0][1]).toFixed(2), ((performance.now() - m[1]) / 1000).toFixed(1)];
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
    appendFileSync(OUT, [testFile(), ...since(file0), load].join('\t') + '\n');
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
