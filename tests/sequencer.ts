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
 * Path prefixes, longest first by each file's whole time in the CI run of 2026-11-29 17:25 (a
 * clean clone of 9d42f25, whose tests are main efc3dff's): the figure vitest prints beside each
 * file, its beforeAll included (a browser file's page opening, the pack's install), which the JSON
 * report's start and end leave out; less what the eighth pass took out (BENCHMARKS.md, "The test
 * suite, eighth pass"). The browser files (which wait on Chromium, whose processes do their work)
 * alternate with files that compute in Node at the top, so that two browser files rarely share the
 * cores with Chromium. Every file of 8 s or more in that run is listed: on a clean clone vitest has
 * no timings of its own and starts the unlisted files largest first. The CI run of 2026-12-01
 * (main 7dee1be) added the Node files of 8 s or more that it timed and the list lacked (pool-rest
 * 21 s, shipped 21, pressure-threads 20, plots 16, preview 10, deep-pool 9) by their times, moved
 * app-threads (25 s, now its honey drop at 3 mm) down, and took out scene-engine (merged into
 * e2e/scenes); that run's
 * GPU files of 8 s or more that the list lacks are branch suitegpu's to place. The CI run of
 * 2026-12-01 (main 6c4daf8) placed gpu/pbf-feed (12.9 s) and gpu/water-rest (11.5 s); the eleventh
 * pass took out particle/validate and grid/spreading (their long cases now smaller: about 5 s each).
 * The full run of 2026-12-03 (main 7fb3ed5, each file's CPU: docs/decisions.md, "Stop 64: the test
 * suite, seventeenth pass") moved particle/pool-rest (38.7 s of CPU, the largest file) and
 * particle/free-bodies (19.3 s) up among the first; grid/validate went down (its rope-coiling tiny
 * case, 14 s, now runs with VISCID_LONG=1; grid/rope-coiling holds its buckle).
 */
export const LONG_FIRST = [
  'tests/e2e/scenes.test.ts', // every scene opened and pictured once (the grid-first ones' engine checks too); the first to ask builds the app
  'tests/sweep/slurm.test.ts', // node start-ups on its cluster, four runs of 12 frames; mostly waits on Slurm
  'tests/e2e/app.test.ts',
  'tests/gpu/step-implicit.test.ts',
  'tests/particle/pool-rest.test.ts', // the honey and water pools at rest, 5 cm deep
  'tests/e2e/webgpu.test.ts', // a Chromium of its own with WebGPU on SwiftShader
  'tests/gpu/run.test.ts', // spawned runs: each compiles the backend's pipelines again
  'tests/gpu/validate.test.ts',
  'tests/particle/free-bodies.test.ts',
  'tests/e2e/switching.test.ts',
  'tests/package/pack.test.ts', // npm pack, an install, tsc on a consumer
  'tests/e2e/dev-server.test.ts', // the one page opened from vite's dev server (~680 modules transformed)
  'tests/gpu/gel.test.ts', // a gel cube on CPU and GPU, and a resume
  'tests/gpu/free-bodies.test.ts', // two free-body agreement runs on SwiftShader, each CPU and GPU
  'tests/gpu/liquids.test.ts',
  'tests/sweep/sweep.test.ts',
  'tests/parallel/app-threads.test.ts',
  'tests/parallel/viscosity-threads.test.ts',
  'tests/particle/physics.test.ts', // the 2 mm pool at rest and the Huppert spreading
  'tests/parallel/team.test.ts',
  'tests/gpu/pbf-feed.test.ts', // a settling pool on CPU and GPU, and a resume
  'tests/gpu/water-rest.test.ts',
  'tests/grid/rope-coiling.test.ts', // the grid rope's buckle, 14 frames of the tiny case's pour
  'tests/cli/run.test.ts',
  'tests/cli/run-dir.test.ts',
  'tests/parallel/pressure-threads.test.ts',
  'tests/parallel/cli-threads.test.ts',
  'tests/gpu/resume.test.ts',
  'tests/compare/cli.test.ts',
  'tests/scene/runs.property.test.ts',
  'tests/gpu/step.test.ts',
  'tests/scene/shipped.test.ts',
  'tests/e2e/plots.test.ts', // side by side, 20 frames of a small scene
  'tests/cli/interrupt.test.ts',
  'tests/gpu/objects.test.ts',
  'tests/gpu/moving.test.ts',
  'tests/particle/gel.test.ts',
  'tests/gpu/temperature.test.ts',
  'tests/cli/preview.test.ts',
  'tests/particle/deep-pool.test.ts',
  'tests/sweep/hostile.test.ts',
  'tests/grid/validate.test.ts',
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
