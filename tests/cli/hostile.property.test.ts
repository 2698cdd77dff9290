/**
 * Properties over hostile input, beside the scene property of tests/scene/runs.property.test.ts:
 * any scene name makes a folder inside out/ and prints without control characters; any sweep.json
 * is refused or names runs inside the sweep folder; any checkpoint with its values rewritten (as a
 * forger can, the checksum recomputed) is refused with a CheckpointError or restores a state whose
 * counts agree with its arrays. VISCID_FC_SEED=<seed> (and VISCID_FC_PATH) replays a failure;
 * VISCID_FC_RUNS sets the number of cases (default 60).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.ts';
import { nameSlug } from '../../src/cli/output-name.ts';
import { printable } from '../../src/cli/printable.ts';
import { readSweep } from '../../src/cli/sweep-plan.ts';
import { CheckpointError, CheckpointReader, CheckpointWriter } from '../../src/io/checkpoint.ts';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { FIXTURES } from './helpers.ts';

const NUM_RUNS = Number(process.env.VISCID_FC_RUNS ?? 60);
const seed = process.env.VISCID_FC_SEED ? Number(process.env.VISCID_FC_SEED) : undefined;
const params = { numRuns: NUM_RUNS, ...(seed !== undefined ? { seed, path: process.env.VISCID_FC_PATH } : {}) };
const tmp = mkdtempSync(join(tmpdir(), 'viscid-hostile-prop-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Strings a hostile user writes: paths, dots, separators, escapes, bidi overrides, any code point. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.array(fc.constantFrom('..', '/', '\\', '.', '\u001b[2J', '\u001b]0;x\u0007', '\u202e', 'C:', 'nul', '~', ' ', 'a', 'é', '\n', '\u0000'), { maxLength: 12 }).map((p) => p.join('')),
);

describe('hostile input, as properties', () => {
  it('any scene name gives a slug folder inside out/ and prints without control characters', () => {
    fc.assert(
      fc.property(hostileText, (name) => {
        const slug = nameSlug(name);
        expect(slug).toMatch(/^[\p{L}\p{N}_][\p{L}\p{N}._-]*$/u);
        expect(slug.length).toBeLessThanOrEqual(80);
        const rel = relative(resolve('out'), resolve('out', slug));
        expect(rel === slug && !rel.startsWith('..')).toBe(true);
        expect(printable(name)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
      params,
    );
  });

  it('any sweep.json is refused as input, or names runs and scenes inside the sweep folder', () => {
    const runArb = fc.record({
      index: fc.oneof(fc.nat(20), fc.integer(), fc.double(), fc.constant(-1)),
      values: fc.oneof(fc.constant([1]), fc.array(fc.nat(), { maxLength: 2 })),
      scene: fc.oneof(fc.nat(20).map((i) => `scenes/${String(i).padStart(4, '0')}.json`), hostileText),
      out: fc.oneof(fc.nat(20).map((i) => `runs/${String(i).padStart(4, '0')}`), hostileText, fc.constant('../x'), fc.constant('/tmp/x')),
    });
    const sweepArb = fc.record({
      viscid: fc.constantFrom('sweep', 'other'),
      base: hostileText,
      parameters: fc.constantFrom([{ path: 'fps', values: [1] }], [], 'x'),
      run: fc.record({ method: fc.constantFrom('particle', 'grid', 'both', '../x'), frames: fc.oneof(fc.nat(5), fc.double()) }),
      runs: fc.array(runArb, { maxLength: 4 }),
    });
    let k = 0;
    fc.assert(
      fc.property(sweepArb, (sweep) => {
        const dir = join(tmp, `sweep-${k++}`);
        mkdirSync(dir);
        writeFileSync(join(dir, 'sweep.json'), JSON.stringify(sweep));
        let read;
        try {
          read = readSweep(dir);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
          return;
        }
        for (const r of read.runs) {
          for (const p of [r.out, r.scene]) {
            const rel = relative(dir, resolve(dir, p));
            expect(rel.startsWith('..') || resolve(rel) === rel, p).toBe(false);
          }
          expect(r.out).toMatch(/^runs[/\\]\d{4,}$/);
        }
      }),
      params,
    );
  });

  it('any checkpoint with rewritten values is refused with a CheckpointError, or restores counts that agree with its arrays', () => {
    const scene = parseScene(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8'));
    const sims = (['particle', 'grid'] as const).map((engine) => {
      const sim = createSimulation(scene, engine);
      sim.stepFrame();
      return sim.save();
    });
    const value = fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.double(), fc.constantFrom(-1, 0.5, 2 ** 31, 2 ** 53, NaN, Infinity));
    fc.assert(
      fc.property(fc.constantFrom(0, 1), fc.dictionary(fc.constantFrom('frame', 'time', 'count', 'cells', 'steps', 'nextId', 'densityError'), value), fc.option(fc.nat(1000)), (which, scalars, flip) => {
        const r = new CheckpointReader(sims[which]);
        const inner = r as unknown as { scalars: Map<string, number>; arrays: Map<string, Float64Array> };
        const w = new CheckpointWriter(r.engine, r.sceneJson, r.sceneHash);
        for (const [name, v] of inner.scalars) w.scalar(name, name in scalars ? scalars[name] : v);
        for (const [name, a] of inner.arrays) {
          let arr = a;
          if (flip !== null && name === 'pos') {
            arr = a.slice();
            arr[flip % arr.length] = NaN;
          }
          w.array(name, arr);
        }
        let sim;
        try {
          sim = restoreSimulation(w.finish());
        } catch (e) {
          expect(e, String(e)).toBeInstanceOf(CheckpointError);
          return;
        }
        expect(Number.isSafeInteger(sim.frame) && sim.frame >= 0).toBe(true);
        expect(Number.isFinite(sim.time)).toBe(true);
        const points = sim.fluidPoints();
        expect(points.positions.length).toBe(3 * points.count);
        for (const x of points.positions) expect(Number.isFinite(x)).toBe(true);
        sim.dispose();
      }),
      params,
    );
  });
});
