/**
 * `viscid validate --backend webgpu` (src/cli/gpu-validate.ts): the cases' synchronous steps reach
 * the GPU through a thread of its own, so a case the backend runs is stepped there (a blob falling
 * in a closed box follows g t² / 2, and a point query after a GPU frame answers from that frame),
 * and the cases whose scenes it does not run are refused by the JSON path of what it does not run,
 * failing nothing and starting no GPU. The GPU case skips by name where there is no adapter
 * (tests/skips.ts, 'webgpu'); the refusals need none.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatResults, runCase, runValidation, type ValidationCase } from '../../src/compare/validate.ts';
import { check, G, liquidScene, simulate, stepTo } from '../../src/compare/validate/case.ts';
import { webgpuValidation } from '../../src/cli/gpu-validate.ts';
import { cli } from '../cli/helpers.ts';
import { GPU_SKIP } from './device.ts';

const backend = webgpuValidation();
afterAll(() => backend.close());

describe('validate on the webgpu backend: refusals', () => {
  it('refuses the cases whose scenes the backend does not run, by JSON path, starting no GPU', () => {
    const results = runValidation({ cases: ['free-fall', 'dam-break'], engines: ['particle'], size: 'tiny', backend });
    expect(results.map((r) => [r.caseName, r.backend, r.passed, r.error])).toEqual([['free-fall', 'webgpu', false, undefined], ['dam-break', 'webgpu', false, undefined]]);
    // The cases run the defaults: the implicit viscosity (not ported) is named, with what to write
    // (their open faces run since sinks.ts).
    expect(results[0].refused).toMatch(/^the WebGPU backend does not run particle\.viscositySolver\n {2}particle\.viscositySolver: "implicit"/);
    expect(results[1].refused).toMatch(/^the WebGPU backend does not run particle\.viscositySolver\n/);
    expect(results[0].refused!.split('\n')).toHaveLength(2);
    expect(formatResults(results)).toContain('refused: free-fall (particle/webgpu): the WebGPU backend does not run particle.viscositySolver');
    expect(backend.adapter()).toBe('');
  });

  it('the CLI lists refused cases apart and fails nothing for them; the grid engine is a usage error', async () => {
    const r = await cli(['validate', '--tiny', '-c', 'free-fall', '--backend', 'webgpu']);
    expect(r.stdout).toContain('0/0 passed; refused by the webgpu backend: free-fall (particle/webgpu)');
    expect(r.stderr).toMatch(/free-fall \(particle\/webgpu\): refused — the WebGPU backend does not run particle\.viscositySolver\n/);
    expect(r.code).toBe(0);
    const grid = await cli(['validate', '-e', 'grid', '--backend', 'webgpu']);
    expect(grid.stderr).toContain('--backend webgpu runs the particle engine');
    expect(grid.code).not.toBe(0);
  }, 120_000);
});

/** 64 particles of 2 mm falling for 0.1 s inside a closed box (the floor is reached at frame 4): the drop and the speed at the blob's centre against g t. */
const fallInBox: ValidationCase = {
  name: 'fall-in-box', title: 'A blob falls in a closed box', engines: ['particle'], source: 'analytic', meaning: 'the GPU path of validate',
  run(engine) {
    const sim = simulate(engine, {
      name: 'fall-in-box', fps: 30, duration: 0.1,
      domain: { min: [0, 0, 0], max: [0.04, 0.14, 0.04], boundary: 'slip' },
      ...liquidScene(1e-6),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [0.02, 0.1, 0.02], size: [0.016, 0.016, 0.016] } }],
      // The method the backend runs: the exchange with one pressure solve.
      particle: { radius: 0.002, viscositySolver: 'exchange', pressureAfterViscosity: false },
    });
    try {
      const y0 = sim.metrics().centerOfMass[1];
      // A point query before the steps: the one after them must answer from the frame stepped, not from cells kept since.
      sim.velocityAt(sim.metrics().centerOfMass);
      stepTo(sim, 3);
      const t = sim.time, drop = y0 - sim.metrics().centerOfMass[1];
      const c = sim.metrics().centerOfMass;
      const vy = sim.velocityAt([c[0], c[1], c[2]])[1];
      return {
        // The engine's time stepping (a kick before each drift) drops the blob 8 % past g t²/2 at
        // frame 3 on the CPU and on the GPU alike (12 % at frame 2, 6 % at frame 4): the check is loose,
        // the agreement between the two is what the test holds tight.
        checks: [check('drop / (g t²/2) − 1', drop / (0.5 * G * t * t) - 1, 0.12), check('v_y at the centre / (−g t) − 1', vy / (-G * t) - 1, 0.05)],
        detail: `frame ${sim.frame}, t ${t.toFixed(3)} s: dropped ${(1000 * drop).toFixed(1)} mm, v_y ${vy.toFixed(3)} m/s`,
      };
    } finally {
      sim.dispose();
    }
  },
};

describe.skipIf(GPU_SKIP)('validate on the webgpu backend: a case stepped on the GPU', () => {
  it('steps the case on the GPU; its drop and point query agree with g t and with the CPU engine', () => {
    const gpu = runCase(fallInBox, 'particle', 'tiny', backend);
    expect(gpu.error, gpu.error).toBeUndefined();
    expect(gpu.refused).toBeUndefined();
    expect(gpu.backend).toBe('webgpu');
    expect(gpu.detail).toMatch(/^frame 3, t 0\.100 s/);
    expect(gpu.checks.map((k) => [k.name, k.passed, k.value])).toEqual(gpu.checks.map((k) => [k.name, true, k.value]));
    expect(backend.adapter()).not.toBe('');
    const cpu = runCase(fallInBox, 'particle', 'tiny');
    expect(cpu.backend).toBeUndefined();
    for (let i = 0; i < cpu.checks.length; i++) expect(Math.abs(gpu.checks[i].value - cpu.checks[i].value), cpu.checks[i].name).toBeLessThan(0.02);
  }, 300_000);
});
