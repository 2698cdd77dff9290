/**
 * `manifest.json` of a run directory: what was run (scene hash, engine, settings, viscid version),
 * how the run stands (`status`: running, complete, interrupted or failed, and for a failure the
 * engine, frame and file), and, per engine, every finished frame with its wall time and stage
 * split, and the checkpoint `--resume` continues from. Rewritten atomically after every frame.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineName } from '../index.ts';
import { UsageError } from './command.ts';
import { MAX_WORKERS } from '../scene/schema.ts';
import { readJsonFile, writeFileAtomic } from './files.ts';

export type RunMethod = EngineName | 'both';
export type MeshFormat = 'obj' | 'ply' | 'glb' | 'none';
export type PointsFormat = 'vtk' | 'ply' | 'none';

export interface FrameRecord {
  frame: number;
  /** Simulated time at the end of the frame, s. */
  time: number;
  /**
   * Wall time from the frame's step to its files on disk, ms. Frames overlap: the frame writer's
   * thread encodes and writes frame k while frame k + 1 steps (frame-writer.ts), so these add up
   * to more than the run took.
   */
  wallMs: number;
  /** `stepFrame` wall time, ms. */
  stepMs: number;
  /** Surface mesh extraction, ms (on the frame writer's thread where the engine hands it its surface). */
  surfaceMs: number;
  /** Encoding and writing the frame files (on the frame writer's thread), ms. */
  writeMs: number;
  /** The engine's per-stage split of `stepMs`, ms. */
  stages: Record<string, number>;
  counters: Record<string, number>;
  points: number;
  fluidVolume: number;
  maxSpeed: number;
  /** Centre of mass of the liquid, m (manifests since `viscid sweep report`, which plots it). */
  centerOfMass?: number[];
  /** Bounds of the liquid, m. */
  bounds?: { min: number[]; max: number[] };
  /** Files written for this frame, relative to the run directory. */
  files: string[];
}

export type RunStatus = 'running' | 'complete' | 'interrupted' | 'failed';

/** Where a run failed: the frame being stepped or written, and the file that could not be written. */
export interface Failure {
  frame: number;
  /** Relative to the run directory; absent when the engine failed, not a write. */
  file?: string;
  message: string;
}

export interface EngineRecord {
  status: RunStatus;
  error?: string;
  failure?: Failure;
  /**
   * Checkpoint `--resume` continues from (relative path), the frame it holds and the sha-256 of its
   * bytes (checked before it is resumed; absent in manifests written before it was recorded).
   * `next`: the checkpoint being written in its place (run.ts saveCheckpoint records it before it
   * replaces the file, so that a run killed between the two writes names the bytes on disk either way).
   */
  checkpoint: { file: string; frame: number; sha256?: string; next?: { frame: number; sha256: string } } | null;
  frames: FrameRecord[];
}

export interface RunSettings {
  method: RunMethod;
  frames: number;
  mesh: MeshFormat;
  points: PointsFormat;
  /** Solid objects per frame, in their pose. */
  solids: MeshFormat;
  workers: number | null;
  checkpointEvery: number;
  /** Digits of the frame numbers in file names. */
  padding: number;
  /** Where the particle engine's frames run: the CPU (absent in older manifests) or WebGPU (src/gpu/). */
  backend?: 'cpu' | 'webgpu';
}

/**
 * The run's scene: its file, name, frame rate and hash (scene/hash.ts). A hash is a viscid's reading
 * of the scene, and a release that adds a setting reads the same file to another hash; a resume
 * that found the scene file the same as the run's checkpointed scene, setting by setting (run-scene.ts),
 * moves the hash the run was started with to `earlier` and records its own. `text` and `meshes` hold
 * what that hash is of, so that a run no checkpoint stores the scene of (killed before its first) is
 * compared setting by setting too.
 */
export interface RunScene {
  file: string;
  name: string;
  sha256: string;
  fps: number;
  /** The viscid whose hash `sha256` is, where a resume rewrote it (else the manifest's `viscid`). */
  hashedBy?: string;
  /** Hashes of this same scene that earlier viscids wrote, oldest first: a checkpoint labelled with one is still this run's. */
  earlier?: EarlierHash[];
  /**
   * The scene text `sha256` is the hash of (serializeScene: the validated scene, defaults filled in,
   * as the viscid that wrote it read it), absent in manifests written before it was recorded.
   */
  text?: string;
  /** SHA-256 of each mesh file the scene loads (hash.ts meshHash), by name; the meshes themselves are in the scene's folder. */
  meshes?: Record<string, string>;
}

export interface EarlierHash {
  sha256: string;
  hashedBy: string;
  /** When a resume replaced it, which viscid, and what it compared: the scene file and the scene stored in a checkpoint, both read by that viscid. */
  replacedAt: string;
  replacedBy: string;
  checked: string;
}

export interface Manifest {
  viscid: string;
  /** The run as a whole: failed or interrupted as soon as one engine is (absent in older manifests). */
  status?: RunStatus;
  scene: RunScene;
  settings: RunSettings;
  /** The scene's method and output settings as run (defaults filled in). */
  sceneSettings: { particle: unknown; grid: unknown; output: unknown };
  engines: Partial<Record<EngineName, EngineRecord>>;
  startedAt: string;
  updatedAt: string;
}

export const MANIFEST = 'manifest.json';
/** A manifest is some hundred bytes a frame; one larger than this is not a run's. */
export const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST);
  let m: Manifest;
  try {
    m = readJsonFile(file, MAX_MANIFEST_BYTES) as Manifest;
  } catch (e) {
    if ((e as Error).message.endsWith('ENOENT')) throw new UsageError(`cannot resume: ${file} not found (is ${dir} the --out directory of an earlier run?)`);
    throw new UsageError(`cannot resume: ${(e as Error).message}`);
  }
  if (!m || typeof m !== 'object' || !m.scene?.sha256 || !m.settings || !m.engines) {
    throw new UsageError(`cannot resume: ${file} is not a viscid run manifest`);
  }
  const problem = manifestProblem(m);
  if (problem) throw new UsageError(`cannot resume: ${file} is damaged: ${problem}`);
  return m;
}

/** Most frames a manifest can record (--frames takes any whole number), and so the digits of its file names. */
const MAX_RUN_FRAMES = Number.MAX_SAFE_INTEGER;

/**
 * What in a manifest a resume would act on and cannot: settings out of their ranges, engines
 * viscid does not have, frame and checkpoint records of the wrong shape. Null when it is sound.
 */
function manifestProblem(m: Manifest): string | null {
  const s = m.settings;
  const oneOf = (what: string, v: unknown, allowed: readonly string[]) =>
    allowed.includes(v as string) ? null : `${what} is ${JSON.stringify(v)?.slice(0, 40)} (expected ${allowed.join(', ')})`;
  const whole = (what: string, v: unknown, lo: number, hi: number) =>
    Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi ? null : `${what} is ${JSON.stringify(v)?.slice(0, 40)} (expected a whole number from ${lo} to ${hi})`;
  const found =
    oneOf('settings.method', s.method, ['particle', 'grid', 'both']) ??
    whole('settings.frames', s.frames, 1, MAX_RUN_FRAMES) ??
    oneOf('settings.mesh', s.mesh, ['obj', 'ply', 'glb', 'none']) ??
    oneOf('settings.points', s.points, ['vtk', 'ply', 'none']) ??
    (s.solids === undefined ? null : oneOf('settings.solids', s.solids, ['obj', 'ply', 'glb', 'none'])) ??
    (s.workers === null || s.workers === undefined ? null : whole('settings.workers', s.workers, 1, MAX_WORKERS)) ??
    (s.backend === undefined ? null : oneOf('settings.backend', s.backend, ['cpu', 'webgpu'])) ??
    whole('settings.padding', s.padding, 4, String(MAX_RUN_FRAMES).length);
  if (found) return found;
  const earlier = m.scene.earlier;
  if (earlier !== undefined && (!Array.isArray(earlier) || earlier.some((e) => !e || typeof e !== 'object' || typeof e.sha256 !== 'string'))) {
    return 'scene.earlier is not a list of earlier hashes';
  }
  if (m.scene.text !== undefined && typeof m.scene.text !== 'string') return 'scene.text is not a scene text';
  const meshes = m.scene.meshes;
  if (meshes !== undefined && (meshes === null || typeof meshes !== 'object' || Array.isArray(meshes) || Object.values(meshes).some((h) => typeof h !== 'string'))) {
    return 'scene.meshes is not a list of mesh hashes';
  }
  for (const [engine, record] of Object.entries(m.engines)) {
    if (engine !== 'particle' && engine !== 'grid') return `engines.${engine.slice(0, 40)} is not an engine (particle, grid)`;
    if (!record || !Array.isArray(record.frames)) return `engines.${engine}.frames is not a list`;
    for (const [i, f] of record.frames.entries()) {
      if (!f || !Number.isInteger(f.frame) || !Array.isArray(f.files)) return `engines.${engine}.frames[${i}] is not a frame record`;
    }
    const c = record.checkpoint;
    if (c !== null && c !== undefined && (typeof c !== 'object' || typeof c.file !== 'string' || !Number.isInteger(c.frame) || c.frame < 0)) {
      return `engines.${engine}.checkpoint is not a checkpoint record`;
    }
    const n = c?.next;
    if (n !== undefined && (n === null || typeof n !== 'object' || !Number.isInteger(n.frame) || n.frame < 0 || typeof n.sha256 !== 'string')) {
      return `engines.${engine}.checkpoint.next is not a checkpoint record`;
    }
  }
  return null;
}

export function writeManifest(dir: string, manifest: Manifest): void {
  manifest.updatedAt = new Date().toISOString();
  writeFileAtomic(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The last word of a run that failed: written atomically if it can be, else over the old manifest
 * in place (a full disk may have no room for a second copy, but the old one's blocks are there).
 * Returns the error when neither worked.
 */
export function writeManifestLast(dir: string, manifest: Manifest): Error | null {
  try {
    writeManifest(dir, manifest);
    return null;
  } catch (first) {
    const text = Buffer.from(`${JSON.stringify(manifest)}\n`);
    try {
      const fd = openSync(join(dir, MANIFEST), 'r+');
      try {
        writeSync(fd, text, 0, text.length, 0);
        ftruncateSync(fd, text.length);
      } finally {
        closeSync(fd);
      }
      return null;
    } catch {
      return first as Error;
    }
  }
}
