/**
 * The folder a `viscid run` writes into, taken for the run (run-dir.ts): a new run's manifest, or
 * a stopped run's manifest and its verified checkpoints for --resume.
 */
import { join, relative, resolve } from 'node:path';
import type { EngineName } from '../index.ts';
import { UsageError } from './command.ts';
import { framePadding } from './files.ts';
import type { LoadedScene } from './load-scene.ts';
import { defaultOutputFolder } from './output-name.ts';
import { readManifest, type Manifest, type RunMethod } from './manifest.ts';
import { claimRunDirectory, verifiedCheckpoint, type ClaimedDir } from './run-dir.ts';
import type { RunFlags } from './run.ts';
import { viscidVersion } from './version.ts';
import { adoptSceneHash, recordSceneText, runSceneHashes, runSceneProblem, type StoredScene } from './run-scene.ts';

export function enginesOf(method: RunMethod): EngineName[] {
  return method === 'both' ? ['particle', 'grid'] : [method];
}

export interface RunFolder {
  dir: string;
  manifest: Manifest;
  /** Verified checkpoint bytes to resume each engine from. */
  checkpoints: Partial<Record<EngineName, Uint8Array>>;
  claim: ClaimedDir;
}

export function startRunFolder(sceneFile: string, flags: RunFlags, loaded: LoadedScene): RunFolder {
  const { scene } = loaded;
  let dir: string;
  let manifest: Manifest;
  const checkpoints: Partial<Record<EngineName, Uint8Array>> = {};
  let claim: ClaimedDir;
  if (flags.resume) {
    dir = resolve(flags.resume);
    if (flags.out && resolve(flags.out) !== dir) throw new UsageError('--out and --resume name different folders; --resume writes into its own folder');
    manifest = readManifest(dir);
    claim = claimRunDirectory(dir, { resume: true, force: false, breakLock: flags.breakLock ?? flags.force, flag: '--resume', remedy: flags.lockRemedy ?? `viscid run ${sceneFile} --resume ${flags.resume} --force` });
    const s = manifest.settings;
    s.method = flags.method ?? s.method;
    s.frames = flags.frames ?? s.frames;
    s.mesh = flags.mesh ?? s.mesh;
    s.points = flags.points ?? s.points;
    s.solids = flags.solids ?? s.solids ?? 'none'; // manifests written before --solids existed
    s.workers = flags.workers ?? s.workers;
    if (flags.backend) s.backend = flags.backend;
    s.checkpointEvery = flags.checkpointEvery;
    // Each checkpoint whole and of this run, then the scene file against the scenes they store (run-scene.ts).
    const stored: StoredScene[] = [];
    try {
      const hashes = runSceneHashes(manifest);
      for (const engine of enginesOf(s.method)) {
        const record = manifest.engines[engine];
        if (!record?.checkpoint) continue;
        const { bytes, scene: storedScene, label } = verifiedCheckpoint(dir, engine, record.checkpoint, hashes, flags.resume);
        checkpoints[engine] = bytes;
        stored.push({ engine, file: record.checkpoint.file, scene: storedScene, label });
      }
      const startOver = `viscid run ${sceneFile} --out ${flags.resume} --force`;
      const restart = flags.restartRemedy ?? `start the run again: ${startOver}`;
      const problem = runSceneProblem(manifest, loaded, stored, sceneFile, flags.resume, `; with no checkpoint a resume starts from frame 0 anyway: ${restart}`, flags.restartRemedy ?? startOver);
      if (problem) throw new UsageError(`cannot resume: ${sceneFile} ${problem}`);
    } catch (e) {
      claim.release();
      throw e;
    }
    const note = adoptSceneHash(manifest, loaded, stored, sceneFile);
    if (note) process.stderr.write(`note: ${note}\n`);
  } else {
    dir = flags.out ? resolve(flags.out) : defaultOutputFolder('', scene.name);
    claim = claimRunDirectory(dir, {
      resume: false,
      force: Boolean(flags.force),
      breakLock: flags.breakLock ?? flags.force,
      flag: flags.out ? '--out' : 'the output folder',
      remedy: flags.lockRemedy ?? `viscid run ${sceneFile} --out ${relative(process.cwd(), dir) || '.'} --force`,
    });
    const frames = flags.frames ?? Math.max(1, Math.ceil(scene.duration * scene.fps - 1e-9));
    manifest = {
      viscid: viscidVersion(),
      status: 'running',
      scene: { file: loaded.file, name: scene.name, sha256: loaded.hash, fps: scene.fps },
      settings: {
        method: flags.method ?? scene.engines?.[0] ?? 'particle',
        frames,
        mesh: flags.mesh ?? scene.output.mesh,
        points: flags.points ?? scene.output.points,
        solids: flags.solids ?? 'none',
        workers: flags.workers ?? null,
        checkpointEvery: flags.checkpointEvery,
        padding: framePadding(frames),
        ...(flags.backend === 'webgpu' ? { backend: 'webgpu' as const } : {}),
      },
      sceneSettings: { particle: scene.particle, grid: scene.grid, output: scene.output },
      engines: {},
      startedAt: new Date().toISOString(),
      updatedAt: '',
    };
    recordSceneText(manifest, loaded);
  }
  return { dir, manifest, checkpoints, claim };
}
