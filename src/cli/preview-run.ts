/**
 * What `viscid preview` reads of a run folder: its manifest, the frames each engine finished, each
 * frame's surface and solid meshes (in whichever of PLY, OBJ and GLB the run wrote), and, where the
 * run wrote no solids, the scene file it ran, to pose the solids from.
 */
import { constants as bufferConstants } from 'node:buffer';
import { join } from 'node:path';
import type { EngineName, Mesh, Scene } from '../index.ts';
import { emptyBox, growBox } from '../preview/bounds.ts';
import type { Box } from '../preview/camera.ts';
import { frameFormat, readFrameMesh } from '../preview/read-mesh.ts';
import { pointsFormat, readFramePoints } from '../preview/points.ts';
import { UsageError } from './command.ts';
import { readBoundedFile, readJsonFile } from './files.ts';
import { loadScene } from './load-scene.ts';
import { runSceneHashes, runSceneProblem, type StoredScene } from './run-scene.ts';
import { CheckpointReader } from '../io/checkpoint.ts';
import { sceneFromCheckpoint } from '../engines.ts';
import { MANIFEST, MAX_MANIFEST_BYTES, type FrameRecord, type Manifest } from './manifest.ts';

export interface RunFrames {
  engine: EngineName;
  /** The frames the engine finished, in order. */
  frames: FrameRecord[];
}

/** The manifest of a run folder, or a UsageError that says what the folder is not. */
export function readRun(dir: string): Manifest {
  let m: Manifest;
  try {
    m = readJsonFile(join(dir, MANIFEST), MAX_MANIFEST_BYTES) as Manifest;
  } catch (e) {
    const msg = (e as Error).message;
    if (msg.endsWith('ENOENT')) throw new UsageError(`preview: ${dir} is not a run folder (it has no ${MANIFEST}); give the --out folder of viscid run`);
    throw new UsageError(`preview: ${msg} (is ${dir} a viscid run folder?)`);
  }
  if (!m || typeof m !== 'object' || !m.engines || typeof m.engines !== 'object' || !m.scene) throw new UsageError(`preview: ${join(dir, MANIFEST)} is not a viscid run manifest`);
  return m;
}

/** The engines to draw: the one asked for, or every engine of the run with a finished frame. */
export function runEngines(m: Manifest, dir: string, engine?: EngineName): RunFrames[] {
  const present = (Object.keys(m.engines) as EngineName[]).filter((e) => (e === 'particle' || e === 'grid') && Array.isArray(m.engines[e]?.frames));
  const chosen = engine ? [engine] : present.filter((e) => m.engines[e]!.frames.length > 0);
  if (engine && !present.includes(engine)) throw new UsageError(`preview: ${dir} has no ${engine} run (engines: ${present.join(', ') || 'none'})`);
  if (chosen.length === 0) throw new UsageError(`preview: the run in ${dir} has no finished frame yet`);
  return chosen.map((e) => {
    const frames = m.engines[e]!.frames.filter((f) => f && Number.isInteger(f.frame) && Array.isArray(f.files));
    if (frames.length === 0) throw new UsageError(`preview: the ${e} run in ${dir} has no finished frame yet`);
    return { engine: e, frames };
  });
}

/** "1–30" or "1–12, 15, 20–24": frame numbers as runs. */
export function frameRanges(frames: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < frames.length; ) {
    let j = i;
    while (j + 1 < frames.length && frames[j + 1] === frames[j] + 1) j++;
    parts.push(i === j ? String(frames[i]) : `${frames[i]}–${frames[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * Four frames spread over the finished ones, as `--frames 8,30,60,120` is for a 120-frame run: a
 * fifteenth, a quarter, half and all of the way (fewer where the run has fewer frames).
 */
export function defaultFrames(finished: readonly number[], count = 4): number[] {
  if (finished.length <= count) return [...finished];
  const last = finished.length - 1;
  const at = [1 / 15, 1 / 4, 1 / 2, 1].slice(-count).map((u) => finished[Math.max(0, Math.round(u * (last + 1)) - 1)]);
  return [...new Set(at)];
}

/** The record of frame `n` of each engine, or a UsageError naming the frames that exist. */
export function pickFrames(runs: readonly RunFrames[], wanted: readonly number[], dir: string): FrameRecord[][] {
  return runs.map((r) => {
    const byNumber = new Map(r.frames.map((f) => [f.frame, f]));
    const missing = wanted.filter((n) => !byNumber.has(n));
    if (missing.length > 0) {
      throw new UsageError(
        `preview: frame${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not in the ${r.engine} run in ${dir}: it has frames ${frameRanges(r.frames.map((f) => f.frame))}`,
      );
    }
    return wanted.map((n) => byNumber.get(n)!);
  });
}

/** The frame's file of a kind (`mesh`, `solids`, `points`) the run wrote for this engine, if any. */
export function frameFile(engine: EngineName, record: FrameRecord, stem: 'mesh' | 'solids' | 'points'): string | undefined {
  // Only the run's own frame files: a manifest does not send preview elsewhere.
  const own = new RegExp(`^${engine}/${stem}-\\d+\\.(${stem === 'points' ? 'ply|vtk' : 'ply|obj|glb'})$`);
  return record.files.find((f) => own.test(f));
}

/** The bytes of one frame file the manifest lists. */
function readRunFile(dir: string, file: string): Uint8Array {
  try {
    return new Uint8Array(readBoundedFile(join(dir, file), bufferConstants.MAX_LENGTH));
  } catch (e) {
    throw new UsageError(`preview: ${(e as Error).message} (the manifest lists it; was the run folder changed?)`);
  }
}

/** Reads one points file of the run (PLY or VTK): its positions. */
export function readRunPoints(dir: string, file: string): Float32Array {
  const format = pointsFormat(file)!;
  const bytes = readRunFile(dir, file);
  try {
    return readFramePoints(format, bytes);
  } catch (e) {
    throw new UsageError(`preview: ${join(dir, file)} is not a readable ${format.toUpperCase()} points file: ${(e as Error).message}`);
  }
}

/** Reads one frame file of the run as a mesh. */
export async function readRunMesh(dir: string, file: string): Promise<Mesh> {
  const format = frameFormat(file)!;
  const bytes = readRunFile(dir, file);
  try {
    return await readFrameMesh(format, bytes);
  } catch (e) {
    throw new UsageError(`preview: ${join(dir, file)} is not a readable ${format.toUpperCase()} mesh: ${(e as Error).message}`);
  }
}

/**
 * The scene the run ran, read from the file its manifest names when that file is still the one
 * the run ran (its hash matches, or, under another viscid's hash, it and the scene a checkpoint of
 * the run stores are the same setting by setting: run-scene.ts); else why not.
 */
export function runScene(m: Manifest, dir: string): { scene: Scene } | { why: string } {
  const file = m.scene?.file;
  if (typeof file !== 'string') return { why: 'the manifest names no scene file' };
  let loaded;
  try {
    loaded = loadScene(file);
  } catch (e) {
    return { why: `its scene ${file} cannot be read (${(e as Error).message})` };
  }
  if (loaded.hash === m.scene.sha256) return { scene: loaded.scene };
  const hashes = runSceneHashes(m);
  const stored: StoredScene[] = [];
  for (const engine of ['particle', 'grid'] as const) {
    const c = m.engines?.[engine]?.checkpoint;
    if (!c || c.file !== `${engine}/checkpoint.vscd`) continue;
    try {
      const reader = new CheckpointReader(new Uint8Array(readBoundedFile(join(dir, c.file), bufferConstants.MAX_LENGTH)));
      if (hashes.includes(reader.sceneHash)) stored.push({ engine, file: c.file, scene: sceneFromCheckpoint(reader), label: reader.sceneHash });
    } catch {
      // a checkpoint that cannot be read says nothing of the scene
    }
  }
  const problem = runSceneProblem(m, loaded, stored, file, dir);
  return problem ? { why: `its scene ${file} ${problem}` } : { scene: loaded.scene };
}

/** The liquid's bounds the manifest records for these frames, and whether it records them for every frame with liquid. */
export function recordedBounds(frames: readonly FrameRecord[]): { boxes: Box[]; complete: boolean } {
  const boxes: Box[] = [];
  let complete = true;
  for (const f of frames) {
    if (f.bounds && Array.isArray(f.bounds.min) && Array.isArray(f.bounds.max)) boxes.push(growBox(emptyBox(), f.bounds.min, f.bounds.max));
    else if (f.points > 0) complete = false;
  }
  return { boxes, complete };
}
