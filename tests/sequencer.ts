/**
 * The order test files start in. The suite runs two files at a time (vitest.config.ts), and a
 * clean clone has no record of how long each file takes, so vitest would start them in listing
 * order and a long file picked last would run on alone at the end. The files that take longest on
 * the 2-core CI machine start first, a browser suite (which keeps Chromium's processes busy)
 * alternating with one that computes in Node; the rest follow in vitest's own order (longest
 * first where it has timed them before, else largest first).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Path prefixes, longest first by the CI run's time per file (the merged run of 2026-11-29 11:44,
 * less what the sixth pass took out of each: BENCHMARKS.md, "The test suite"), browser files
 * (which wait on Chromium) alternating with files that compute in Node at the top. Every file of
 * 8 s or more in that run is listed: on a clean clone vitest has no timings of its own and starts
 * the unlisted files largest first.
 */
export const LONG_FIRST = [
  'tests/e2e/scenes.test.ts', // every scene opened and pictured once (the grid-first ones' engine checks too)
  'tests/sweep/slurm.test.ts', // node start-ups on its cluster, four runs of 30 frames
  'tests/e2e/app.test.ts',
  'tests/grid/validate.test.ts', // the rope-coiling tiny case is most of it
  'tests/gpu/free-bodies.test.ts', // two free-body agreement runs on SwiftShader, each CPU and GPU
  'tests/gpu/gel.test.ts', // a gel cube 10 frames on CPU and GPU, and a resume
  'tests/gpu/resume.test.ts',
  'tests/e2e/webgpu.test.ts',
  'tests/particle/physics.test.ts', // the two pools at rest (2 s each) and the Huppert spreading
  'tests/parallel/app-threads.test.ts',
  'tests/package/pack.test.ts', // npm pack, an install, tsc on a consumer
  'tests/e2e/switching.test.ts',
  'tests/particle/validate.test.ts', // full-size spreading runs with VISCID_LONG=1 only
  'tests/parallel/cli-threads.test.ts',
  'tests/parallel/team.test.ts',
  'tests/e2e/dev-server.test.ts', // the one page opened from vite's dev server (~680 modules transformed)
  'tests/gpu/run.test.ts', // spawned runs: each compiles the backend's pipelines again
  'tests/cli/run-dir.test.ts',
  'tests/cli/run.test.ts',
  'tests/gpu/step-implicit.test.ts',
  'tests/gpu/validate.test.ts',
  'tests/sweep/sweep.test.ts',
  'tests/parallel/viscosity-threads.test.ts',
  'tests/cli/interrupt.test.ts',
  'tests/particle/gel.test.ts',
  'tests/cli/caps.test.ts',
  'tests/gpu/moving.test.ts',
  'tests/particle/free-bodies.test.ts',
  'tests/gpu/step.test.ts',
  'tests/gpu/objects.test.ts',
  'tests/scene/runs.property.test.ts',
  'tests/sweep/hostile.test.ts',
  'tests/e2e/scene-engine.test.ts',
  'tests/compare/cli.test.ts',
  'tests/cli/lock.test.ts',
  'tests/grid/spreading.test.ts',
];

function rank(spec: TestSpecification): number {
  const path = spec.moduleId.replaceAll('\\', '/');
  const i = LONG_FIRST.findIndex((p) => path.includes(`/${p}`));
  return i < 0 ? LONG_FIRST.length : i;
}

export default class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const order = new Map(base.map((f, i) => [f, i]));
    return base.sort((a, b) => rank(a) - rank(b) || order.get(a)! - order.get(b)!);
  }
}
