/**
 * viscid as a user gets it from npm: `npm pack`, the tarball installed into an empty project (from
 * npm's cache where it can; without the optional `webgpu`, which the package must do without), and there the API imported from plain Node (no tsx anywhere), the
 * `viscid` bin run on a scene (info, and a one-frame run on two threads with the frame writer's
 * thread), and a TypeScript consumer type-checked with tsc against the shipped declarations
 * (`nodenext` resolution, every declaration file of the package's checked).
 * npm pack: only the files users need; the install: no install-time script for npm to warn about.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, distIsFresh } from '../../scripts/build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(join(tmpdir(), 'viscid-pack-'));
const project = join(tmp, 'project');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A small scene (1 728 syrup particles: enough for the particle engine's thread team to work). */
const SCENE = {
  name: 'packed',
  fps: 30,
  duration: 1,
  materials: {
    syrup: { kind: 'liquid', density: 1300, viscosity: { value: 2, unit: 'Pa.s' }, color: '#c08020' },
    floor: { kind: 'solid', friction: 0.5 },
  },
  bodies: [
    { name: 'floor', material: 'floor', shape: { type: 'box', center: [0, -0.02, 0], size: [0.16, 0.04, 0.16] } },
    { name: 'syrup', material: 'syrup', shape: { type: 'box', center: [0, 0.06, 0], size: [0.08, 0.08, 0.08] } },
  ],
  particle: { radius: 0.00333, substeps: 2, moves: 2 },
  output: { resolution: 2 },
};

interface PackEntry {
  filename: string;
  files: { path: string; size: number }[];
  unpackedSize: number;
}
let packed: PackEntry;

function run(cmd: string, args: string[], cwd = project) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true', npm_config_update_notifier: 'false' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  // The tarball is packed from dist/ as it stands when it is up to date with src/ (npm pack's
  // prepack would rebuild it from scratch).
  if (!distIsFresh()) expect(build()).toBe(0);
  const out = execFileSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' });
  packed = (JSON.parse(out) as PackEntry[])[0];
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'scene.json'), JSON.stringify(SCENE));
  const tarball = join(tmp, packed.filename);
  // From npm's cache (filled by the npm ci that installed this checkout); the registry only for
  // what the cache lacks. Without the optional `webgpu` (132 MB unpacked: half the install's CPU),
  // as an install where it fails is left: the package must work without it (the GPU backend's
  // own tests are tests/gpu, in the checkout).
  const flags = ['--omit=optional', '--no-audit', '--no-fund'];
  let install = run(NPM, ['install', tarball, '--offline', ...flags]);
  if (install.code !== 0) install = run(NPM, ['install', tarball, '--prefer-offline', ...flags]);
  expect(install.code, install.stderr).toBe(0);
  // No install-time script of viscid's is left for npm to ask its users about (npm's allowScripts).
  expect(install.stderr).not.toMatch(/install-scripts.*viscid/);
});

describe('the npm package', () => {
  it('ships the build, the bin and the scenes, and nothing of the sources, tests or tools', () => {
    const paths = packed.files.map((f) => f.path);
    for (const need of ['package.json', 'README.md', 'bin/viscid.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/cli/threads.d.ts', 'dist/cli/thread-entry.js', 'dist/cli/frame-writer-entry.js', 'scenes/honey-drop.json', 'scene.schema.json']) {
      expect(paths, need).toContain(need);
    }
    const stray = paths.filter((p) => /^(src|tests|bench|scripts|\.ci)\/|\.map$|\.tsbuildinfo$|^dist\/(app|render)\/|^dist\/\.built$/.test(p));
    expect(stray).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    // Declarations point at the .js files that ship, not at the sources.
    expect(readFileSync(join(project, 'node_modules/viscid/dist/index.d.ts'), 'utf8')).not.toMatch(/from '\.[^']*\.ts'/);
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/viscid/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
    // A bound that a stray folder (megabytes) crosses, not the shipped code's growth: the package
    // was 2.98 MB on 2026-11-30 before that day's merge, 3.03 MB after it and 3.53 MB at stop 50's
    // merge (the build keeps the sources' comments, the method's citations, in its .js; each stage
    // in a module of its own): a megabyte of headroom over the code, under what a stray folder adds.
    expect(packed.unpackedSize).toBeLessThan(4_500_000);
  });

  it('imports from plain Node and runs a frame on two threads', () => {
    writeFileSync(
      join(project, 'api.mjs'),
      `import { readFileSync } from 'node:fs';
import { parseScene, createSimulation, restoreSimulation, toPLY, toOBJ, engineNames } from 'viscid';
import { spawnNodeThread } from 'viscid/threads';
const scene = parseScene(readFileSync('scene.json', 'utf8'));
const sim = createSimulation(scene, 'particle', { workers: 2, spawnThread: spawnNodeThread });
await sim.ready?.();
const stats = sim.stepFrame();
const mesh = sim.surfaceMesh();
const again = restoreSimulation(sim.save());
console.log(JSON.stringify({
  resolved: import.meta.resolve('viscid'), engines: engineNames(), frame: sim.frame, threads: stats.counters.threads,
  points: sim.fluidPoints().count, triangles: mesh.indices.length / 3, ply: toPLY(mesh).length, obj: toOBJ(mesh).length, restored: again.frame,
}));
sim.dispose();
again.dispose();
`,
    );
    const r = run(process.execPath, ['api.mjs']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out.resolved).toMatch(/node_modules\/viscid\/dist\/index\.js$/);
    expect(out.engines).toEqual(expect.arrayContaining(['particle', 'grid']));
    expect(out).toMatchObject({ frame: 1, threads: 2, points: 1728, restored: 1 });
    expect(out.triangles as number).toBeGreaterThan(100);
    expect(out.ply as number).toBeGreaterThan(1000);
    expect(out.obj as number).toBeGreaterThan(1000);
  });

  it('runs the viscid bin: info, and a one-frame run with its threads', () => {
    const info = run(NPM, ['exec', '--no', '--', 'viscid', 'info', 'scene.json']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/^packed \(scene\.json\)/);
    expect(info.stdout).toMatch(/particle engine: ~[\d,]+ particles \([\d,]+ liquid \+ [\d,]+ object\)/);
    // The link npm made in node_modules/.bin (what `npx viscid` runs, found above), without a
    // second npm start-up.
    const r = run(join(project, 'node_modules', '.bin', 'viscid'), ['run', 'scene.json', '--frames', '1', '--workers', '2', '--out', 'out']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/frame writer's thread failed/);
    const manifest = JSON.parse(readFileSync(join(project, 'out/manifest.json'), 'utf8')) as { engines: { particle: { status: string; frames: { counters: Record<string, number>; files: string[] }[] } } };
    const rec = manifest.engines.particle;
    expect(rec.status).toBe('complete');
    expect(rec.frames).toHaveLength(1);
    expect(rec.frames[0].counters.threads).toBe(2);
    expect(rec.frames[0].files.length).toBeGreaterThan(0);
    for (const f of rec.frames[0].files) expect(existsSync(join(project, 'out', f)), f).toBe(true);
    expect(readdirSync(join(project, 'out/particle'))).toContain('checkpoint.vscd');
  });

  it('type-checks a TypeScript consumer against the shipped declarations', () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { parseScene, createSimulation, toPLY, SceneError, type Mesh, type Scene, type Simulation, type StepStats } from 'viscid';
import { spawnNodeThread } from 'viscid/threads';
import { main } from 'viscid/cli';

export function frame(json: unknown): Uint8Array {
  const scene: Scene = parseScene(json);
  const sim: Simulation = createSimulation(scene, 'grid', { workers: 2, spawnThread: spawnNodeThread });
  const stats: StepStats = sim.stepFrame();
  const ms: number = stats.wallMs;
  const mesh: Mesh = sim.surfaceMesh();
  sim.dispose();
  return ms >= 0 ? toPLY(mesh) : new Uint8Array(0);
}
export const isSceneError = (e: unknown): boolean => e instanceof SceneError;
export const cli: (argv: string[]) => Promise<number> = main;
// The declarations are real types, not any: a wrong engine name and a wrong result are errors.
// @ts-expect-error: no engine of that name
createSimulation(parseScene({}), 'sph');
// @ts-expect-error: a Mesh is not a string
export const wrong: string = ({} as Simulation).surfaceMesh();
`,
    );
    // tsc's checker in this process, on a program of nodenext resolution, the strictest (bundler
    // resolution reads the same `types` condition): the consumer and every declaration file of the
    // package's that it reaches are checked, as `tsc` with skipLibCheck off checks them; the
    // declarations of TypeScript's lib, @types/node and the package's dependencies are read, not
    // checked (they are not the package's). 5.7 s of CPU against 12.5 s for `tsc -p` in a process of
    // its own checking all of them (BENCHMARKS.md, "The browser files, eleventh pass").
    const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
    const program = ts.createProgram({
      rootNames: [join(project, 'consumer.ts')],
      options: {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        strict: true,
        noEmit: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
    });
    const pkg = join(project, 'node_modules', 'viscid') + sep;
    const checked = program.getSourceFiles().filter((f) => !f.isDeclarationFile || resolve(f.fileName).startsWith(pkg));
    // The package's own: its index, threads and cli declarations and what they import.
    expect(checked.filter((f) => f.isDeclarationFile).length).toBeGreaterThan(20);
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ];
    const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => project, getNewLine: () => '\n' });
    expect(text).toBe('');
  });
});
