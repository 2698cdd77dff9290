/**
 * A run's output folder belongs to that run. `viscid run` writes into a folder that is new, empty,
 * or cleared with `--force`; `--resume` is the only way to continue what a folder holds. A lock
 * file keeps two runs from writing into one folder at once (run-lock.ts: created exclusively; a
 * lock left by a run that was killed is taken over, another host's only with --force). On resume, temporary files of a killed run and frame files written after the
 * checkpoint are swept, so no stale frame sits beside the ones the run writes.
 *
 * `--force` clears viscid's own files only — manifest.json, the lock, and in the engine folders
 * the frame files (mesh-, points-, solids-NNNN.*), checkpoint.vscd and temporary files — and leaves
 * anything else in the folder where it is.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { join } from 'node:path';
import type { EngineName } from '../index.ts';
import type { Scene } from '../scene/scene.ts';
import { CheckpointReader } from '../io/checkpoint.ts';
import { sceneFromCheckpoint } from '../engines.ts';
import { UsageError } from './command.ts';
import { readBoundedFile, TEMP_FILE } from './files.ts';
import { printable } from './printable.ts';
import { LOCK, LockRefused, takeLock } from './run-lock.ts';
export { LOCK } from './run-lock.ts';
import { MANIFEST, MAX_MANIFEST_BYTES, type EngineRecord, type Manifest } from './manifest.ts';

export const ENGINE_DIRS: readonly EngineName[] = ['particle', 'grid'];
/** Frame files of `viscid run`: `mesh-0001.obj`, `points-00012.vtk`, `solids-0003.glb`. */
const FRAME_FILE = /^(mesh|points|solids)-(\d{4,})\.(obj|ply|glb|vtk)$/;
const CHECKPOINT = 'checkpoint.vscd';

/** Frame number of a frame file's name, or -1. */
export function frameOfFile(name: string): number {
  const m = FRAME_FILE.exec(name);
  return m ? Number(m[2]) : -1;
}

function isViscidFile(name: string): boolean {
  return FRAME_FILE.test(name) || name === CHECKPOINT || TEMP_FILE.test(name);
}

export interface ClaimedDir {
  dir: string;
  /** Removes the lock (at the end of the run, whatever its outcome). */
  release(): void;
}

export interface ClaimOptions {
  resume: boolean;
  /** Clear viscid's files from a folder that is not empty (`--force` without `--resume`). */
  force: boolean;
  /** Take over a lock that cannot be checked from here: another host's, or unreadable (run-lock.ts). */
  breakLock?: boolean;
  flag: string;
  /** The command line that retries with --force, for the message about such a lock. */
  remedy?: string;
}

/**
 * Takes `dir` for a run: refuses a file, a folder another live run writes into (its lock, taken
 * exclusively: run-lock.ts), and (without `resume` or `force`) a folder that is not empty; with
 * `force`, clears viscid's files first, under the lock.
 */
export function claimRunDirectory(dir: string, options: ClaimOptions): ClaimedDir {
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new UsageError(`${options.flag} ${dir}: it is a file, not a folder; name a folder for the run's files`);
  }
  let release: () => void;
  try {
    mkdirSync(dir, { recursive: true });
    release = takeLock(dir, {
      force: Boolean(options.breakLock),
      remedy: options.remedy ?? `the same command with --force`,
      note: (line) => process.stderr.write(`note: ${line}\n`),
    });
  } catch (e) {
    if (e instanceof LockRefused) throw new UsageError(e.message);
    throw new UsageError(`cannot write into ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    if (!options.resume) {
      const entries = readdirSync(dir).filter((e) => e !== LOCK && !e.startsWith(`${LOCK}.`));
      if (entries.length > 0) {
        if (!options.force) throw new UsageError(notEmptyMessage(dir, entries));
        const { removed, kept } = clearViscidFiles(dir);
        process.stderr.write(`--force: removed ${removed} file${removed === 1 ? '' : 's'} of an earlier run from ${dir}${kept ? `; left ${kept} other entr${kept === 1 ? 'y' : 'ies'} there` : ''}\n`);
      }
    }
  } catch (e) {
    release();
    throw e;
  }
  let released = false;
  return {
    dir,
    release() {
      if (released) return;
      released = true;
      release();
    },
  };
}

function notEmptyMessage(dir: string, entries: string[]): string {
  if (entries.includes(MANIFEST)) {
    let what = 'a viscid run';
    try {
      const m = JSON.parse(readBoundedFile(join(dir, MANIFEST), MAX_MANIFEST_BYTES).toString('utf8')) as Partial<Manifest>;
      const status = m.status ?? Object.values(m.engines ?? {}).map((e) => e?.status)[0];
      what = `a viscid run of scene '${printable(m.scene?.name ?? '?')}'${status ? ` (${printable(status)})` : ''}${m.startedAt ? `, started ${printable(m.startedAt)}` : ''}`;
    } catch {
      // an unreadable manifest is still a run's
    }
    return `${dir} holds ${what}: continue it with --resume ${dir}, or pass --force to clear its files and start over`;
  }
  const shown = entries.slice(0, 3).map(printable).join(', ') + (entries.length > 3 ? ', …' : '');
  return `${dir} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${shown}): name a new or empty folder, or pass --force to write there (it clears viscid's own files only)`;
}

/** Removes viscid's files from a run folder (see the header); returns how many, and how many entries it left. */
export function clearViscidFiles(dir: string): { removed: number; kept: number } {
  let removed = 0;
  let kept = 0;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === LOCK || entry.startsWith(`${LOCK}.`)) {
      continue; // the lock is the run's that clears the folder
    } else if (entry === MANIFEST || TEMP_FILE.test(entry)) {
      rmSync(path, { force: true });
      removed++;
    } else if ((ENGINE_DIRS as readonly string[]).includes(entry) && lstatSync(path).isDirectory()) {
      const before = readdirSync(path);
      for (const f of before) {
        if (isViscidFile(f) && lstatSync(join(path, f)).isFile()) {
          rmSync(join(path, f), { force: true });
          removed++;
        }
      }
      if (readdirSync(path).length === 0) rmdirSync(path);
      else kept++;
    } else {
      kept++;
    }
  }
  return { removed, kept };
}

/**
 * Before an engine resumes from frame `from` in `dir`: removes temporary files a killed run left
 * (in the folder and the engine's folder) and the engine's frame files after `from`, which the
 * run writes again. Returns how many files went.
 */
export function sweepForResume(dir: string, engine: EngineName, from: number): number {
  let removed = 0;
  for (const entry of readdirSync(dir)) {
    if (TEMP_FILE.test(entry)) {
      rmSync(join(dir, entry), { force: true });
      removed++;
    }
  }
  const engineDir = join(dir, engine);
  // Only the run's own folder: not one a symbolic link leads to.
  if (!existsSync(engineDir) || !lstatSync(engineDir).isDirectory()) return removed;
  for (const f of readdirSync(engineDir)) {
    if (TEMP_FILE.test(f) || frameOfFile(f) > from) {
      rmSync(join(engineDir, f), { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * The checkpoint an engine resumes from, refused (exit 2) unless it is whole and of this run: its
 * bytes match the sha-256 the manifest recorded (or the `next` one it recorded before the file was
 * replaced, whose frame it then takes), its own checksum holds, the scene hash it carries is one
 * the manifest names as its scene's (`sceneShas`: run-scene.ts runSceneHashes), and the scene text
 * and meshes it stores hash, as written, to that label. Returns the bytes and the stored scene read
 * under today's schema, which the caller compares with the scene file (run-scene.ts). (These catch
 * accidents and mix-ups, not forgery; the engines validate every restored value besides.)
 */
export function verifiedCheckpoint(
  dir: string,
  engine: EngineName,
  checkpoint: NonNullable<EngineRecord['checkpoint']>,
  sceneShas: readonly string[],
  shown: string,
): { bytes: Uint8Array; scene: Scene; label: string } {
  // Where viscid writes it, and nowhere else: a manifest does not send a resume to read other files.
  if (checkpoint.file !== `${engine}/${CHECKPOINT}`) {
    throw new UsageError(`cannot resume: the manifest in ${shown} names ${JSON.stringify(checkpoint.file)} as the ${engine} checkpoint; it is always ${engine}/${CHECKPOINT}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readBoundedFile(join(dir, checkpoint.file), bufferConstants.MAX_LENGTH, `checkpoint ${checkpoint.file} in ${shown}`));
  } catch (e) {
    throw new UsageError(`cannot resume: ${(e as Error).message}`);
  }
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (checkpoint.sha256 && sha !== checkpoint.sha256 && checkpoint.next?.sha256 === sha) {
    // The run was killed after it replaced the checkpoint and before its manifest said so: the bytes
    // are the `next` the manifest recorded first (run.ts saveCheckpoint), at its frame.
    checkpoint.frame = checkpoint.next.frame;
    checkpoint.sha256 = sha;
  }
  delete checkpoint.next;
  if (checkpoint.sha256 && sha !== checkpoint.sha256) {
    throw new UsageError(`cannot resume: checkpoint ${checkpoint.file} in ${shown} is not the one the manifest recorded (its sha-256 differs): it was changed or damaged`);
  }
  let reader: CheckpointReader;
  try {
    reader = new CheckpointReader(bytes);
  } catch (e) {
    throw new UsageError(`cannot resume: checkpoint ${checkpoint.file} in ${shown}: ${(e as Error).message}`);
  }
  if (!sceneShas.includes(reader.sceneHash)) {
    throw new UsageError(`cannot resume: checkpoint ${checkpoint.file} in ${shown} holds another scene (sha256 ${printable(reader.sceneHash.slice(0, 12))}…) than the manifest's (${sceneShas[0].slice(0, 12)}…)`);
  }
  // The scene inside, as written, against its own label (and so the manifest's).
  try {
    return { bytes, scene: sceneFromCheckpoint(reader), label: reader.sceneHash };
  } catch (e) {
    throw new UsageError(`cannot resume: checkpoint ${checkpoint.file} in ${shown}: ${(e as Error).message}`);
  }
}
