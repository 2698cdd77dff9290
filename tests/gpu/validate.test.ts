/**
 * `viscid validate --backend webgpu` (src/cli/gpu-validate.ts): the cases' synchronous steps reach
 * the GPU through a thread of its own, so a case the backend runs is stepped there (a blob falling
 * in a closed box follows g t² / 2, and a point query after a GPU frame answers from that frame),
 * and a case whose scene it does not run is refused by the JSON path of what it does not run,
 * failing nothing and starting no GPU. The GPU case skips by name where there is no adapter
 * (tests/skips.ts, 'webgpu'); the refusals need none.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatResults, runCase, type ValidationCase } from '../../src/compare/validate.ts';
import { check, G, liquidScene, simulate, stepTo } from '../../src/compare/validate/case.ts';
import { measureShearDecay } from '../../src/compare/validate/particle-viscosity.ts';
import { webgpuValidation } from '../../src/cli/gpu-validate.ts';
import { cliInProcess } from '../cli/helpers.ts';
import { GPU_SKIP } from './device.ts';
import { skipTitle } from '../skips.ts';
import { distIsFresh } from '../../scripts/build.js';

// The GPU thread on dist/'s entry when dist/ is up to date with src/ (as tests/parallel/helpers.ts
// starts team threads): from the sources the thread registers tsx and transforms the engines again
// (docs/decisions.md, "The test suite, twelfth pass").
const backend = webgpuValidation(distIsFresh() ? new URL('../../dist/cli/gpu-validate-entry.js', import.meta.url) : undefined);
afterAll(() => backend.close());

describe('validate on the webgpu backend: refusals', () => {
  it('refuses a case whose scene the backend does not run, by JSON path, starting no GPU', () => {
    // Every shipped particle case runs on the backend at the defaults since sinks.ts and the implicit
    // viscosity: a case of two liquids, one of them a gel (several liquids run, a gel among them not), is refused.
    const r = runCase(twoLiquids, 'particle', 'tiny', backend);
    expect([r.caseName, r.backend, r.passed, r.error]).toEqual(['two-liquids', 'webgpu', false, undefined]);
    expect(r.refused).toMatch(/^the WebGPU backend does not run materials\.b\.viscoelastic\n {2}materials\.b\.viscoelastic: a gel among several liquids/);
    expect(r.refused!.split('\n')).toHaveLength(2);
    expect(formatResults([r])).toContain('refused: two-liquids (particle/webgpu): the WebGPU backend does not run materials.b.viscoelastic');
    expect(backend.adapter()).toBe('');
  });

  it('the grid engine is a usage error of the CLI', async () => {
    // In this process (main(argv)): the refusal is the CLI's option check, before any GPU or case.
    const grid = await cliInProcess(['validate', '-e', 'grid', '--backend', 'webgpu']);
    expect(grid.stderr).toContain('--backend webgpu runs the particle engine');
    expect(grid.code).not.toBe(0);
  });
});

/** Two liquids falling in a closed box, b a gel: a scene the backend refuses (a gel among several liquids: src/gpu/liquids.ts). */
const twoLiquids: ValidationCase = {
  name: 'two-liquids', title: 'Two liquids', engines: ['particle'], source: 'analytic', meaning: 'a refusal on the GPU path of validate',
  run(engine) {
    const liquid = (name: string) => ({ kind: 'liquid' as const, viscosity: { value: 1e-6, unit: 'm2/s' as const }, color: name === 'a' ? '#d9a21b' : '#3366cc' });
    const sim = simulate(engine, {
      name: 'two-liquids', fps: 30, duration: 0.1,
      domain: { min: [0, 0, 0], max: [0.04, 0.14, 0.04], boundary: 'slip' },
      materials: { a: liquid('a'), b: { ...liquid('b'), viscoelastic: { elasticModulus: 100 } } },
      bodies: [
        { material: 'a', shape: { type: 'box', center: [0.02, 0.1, 0.02], size: [0.01, 0.01, 0.01] } },
        { material: 'b', shape: { type: 'box', center: [0.02, 0.05, 0.02], size: [0.01, 0.01, 0.01] } },
      ],
    });
    sim.dispose();
    return { checks: [], detail: 'not refused' };
  },
};

/** 64 particles of 2 mm falling for 0.1 s inside a closed box (the floor is reached at frame 4): the drop and the speed at the blob's centre against g t. */
const fallInBox: ValidationCase = {
  name: 'fall-in-box', title: 'A blob falls in a closed box', engines: ['particle'], source: 'analytic', meaning: 'the GPU path of validate',
  run(engine) {
    const sim = simulate(engine, {
      name: 'fall-in-box', fps: 30, duration: 0.1,
      domain: { min: [0, 0, 0], max: [0.04, 0.14, 0.04], boundary: 'slip' },
      ...liquidScene(1e-6),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [0.02, 0.1, 0.02], size: [0.016, 0.016, 0.016] } }],
      // The default method: the implicit viscosity between two pressure solves.
      particle: { radius: 0.002 },
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
        // The blob is in free flight (ballistic.ts: the trapezoid rule) until it lands: no pressure
        // moves it, as the pressures' source takes none of the present compression at the default
        // (pressure.ts PRESENT_TWICE; the second solve shifts it out instead), so both engines drop it
        // g t²/2 to 1e-4 at frame 3 (8 % past it when the source took the compression as velocity).
        // The check is loose, the agreement between the two is what the test holds tight.
        checks: [check('drop / (g t²/2) − 1', drop / (0.5 * G * t * t) - 1, 0.12), check('v_y at the centre / (−g t) − 1', vy / (-G * t) - 1, 0.05)],
        detail: `frame ${sim.frame}, t ${t.toFixed(3)} s: dropped ${(1000 * drop).toFixed(1)} mm, v_y ${vy.toFixed(3)} m/s`,
      };
    } finally {
      sim.dispose();
    }
  },
};

/**
 * The shear-decay case (particle-viscosity.ts) of the honey-like viscosity, ν 0.01 m²/s, at 2.5 mm
 * (192 particles, 4 layers across the 2 cm gap; 3 frames of 10 sub-timesteps) with the channel's far
 * ends closed ("slip": without gravity nothing reaches them, and the backend does not run open faces):
 * the implicit viscosity through validate's GPU path. At 2 mm (300 particles, 5 layers) until stop 64:
 * ν −20 % of the asked on both engines, 0.05 % apart; at 2.5 mm −24 %, 0.1 % apart (GPU 7.5755e-3, CPU
 * 7.5836e-3), the file's CPU 6–7 s less (A/B pairs: docs/decisions.md, "Stop 64: the test suite,
 * seventeenth pass"). SwiftShader's CPU follows the particles: a water pool's GPU frame took 0.4 ms
 * of CPU a dispatch at 100 particles, 1.85 ms at 300.
 */
const shearDecay: ValidationCase = {
  name: 'shear-decay-closed', title: 'Decaying shear flow between no-slip walls, closed ends', engines: ['particle'], source: 'analytic',
  meaning: 'the implicit viscosity on the GPU path of validate',
  run() {
    const m = measureShearDecay(0.01, 0.0025, 'implicit', 'slip');
    return { checks: [check('ν_decay / ν − 1', m.nu / 0.01 - 1, 0.3)], detail: `ν ${m.nu.toExponential(4)} (R² ${m.r2.toFixed(4)}, ${m.frames} frames)` };
  },
};

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'validate on the webgpu backend: a case stepped on the GPU'), () => {
  // One GPU run of the case, read by both tests below (the second compares it with the CPU engine's).
  let fall: ReturnType<typeof runCase> | undefined;
  const fallOnGpu = () => (fall ??= runCase(fallInBox, 'particle', 'tiny', backend));

  it('steps the case on the GPU; its drop and point query agree with g t', () => {
    const gpu = fallOnGpu();
    expect(gpu.error, gpu.error).toBeUndefined();
    expect(gpu.refused).toBeUndefined();
    expect(gpu.backend).toBe('webgpu');
    expect(gpu.detail).toMatch(/^frame 3, t 0\.100 s/);
    expect(gpu.checks.map((k) => [k.name, k.passed, k.value])).toEqual(gpu.checks.map((k) => [k.name, true, k.value]));
    expect(backend.adapter()).not.toBe('');
  });

  it('the drop and point query agree with the CPU engine\'s within 4 %', () => {
    const gpu = fallOnGpu(), cpu = runCase(fallInBox, 'particle', 'tiny');
    expect(gpu.backend).toBe('webgpu');
    // A particle keeps its free flight (ballistic.ts) where the pressure did not displace it at all.
    // When the pressures' source took the present compression as velocity, that was decided in a
    // falling blob by pressures of round-off size (the CPU's p/δt² ≈ 1e-33, the GPU's 0), and the
    // drops differed by 3 %; with the position shift on both (pressure-shift.ts shiftPresent,
    // pressure-shift-wgsl.ts) both keep free flight: 49.0 / 49.1 mm, both checks under 1e-4 (GPU / CPU).
    // Without the shift on the GPU they stood 8 % apart.
    console.log(`fall in box: GPU ${gpu.detail}, ${gpu.checks.map((k) => `${k.name} ${k.value.toFixed(4)}`).join(', ')}; CPU ${cpu.detail}, ${cpu.checks.map((k) => k.value.toFixed(4)).join(', ')}`);
    for (let i = 0; i < cpu.checks.length; i++) expect(Math.abs(gpu.checks[i].value - cpu.checks[i].value), cpu.checks[i].name).toBeLessThan(0.04);
  });

  it('decays a shear mode at ν 0.01 m²/s on the GPU: ν within the tiny tolerance (30 %) and within 2 % of the CPU engine\'s', () => {
    const gpu = runCase(shearDecay, 'particle', 'tiny', backend);
    expect(gpu.error, gpu.error).toBeUndefined();
    expect(gpu.backend).toBe('webgpu');
    const cpu = runCase(shearDecay, 'particle', 'tiny');
    console.log(`shear decay at ν 0.01: GPU ${gpu.detail}; CPU ${cpu.detail}`);
    expect(gpu.checks[0].passed).toBe(true);
    // 0.4 % apart with the position shift on both (pressure-shift.ts shiftPresent, pressure-shift-wgsl.ts); 2.1 % with it on the CPU alone.
    expect(Math.abs(gpu.checks[0].value - cpu.checks[0].value)).toBeLessThan(0.02);
  });
});
