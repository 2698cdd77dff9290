/**
 * Whether a scene file is the scene of a run, for `--resume` (run-start.ts) and `preview` (preview-run.ts).
 *
 * The manifest's hash (scene/hash.ts) is the reading of the scene by the viscid that wrote it. When
 * this viscid hashes the file to it, the file is the run's scene. When it does not, an earlier viscid
 * may have written the hash from a text without settings added since; so the scene the run's
 * checkpoint stores, checked against its label as written (engines.ts sceneFromCheckpoint), and the
 * file are both read under today's schema (defaults filled in) and compared setting by setting
 * (scene/difference.ts). The same: the run's scene, and the manifest records the new hash beside
 * the old (`scene.earlier`). Different: refused, naming the first setting that differs with both
 * values. No checkpoint: the manifest's own copy of the scene text its hash is of (`scene.text`, with
 * its meshes' hashes; manifestScene) is compared the same way, once its meshes are the file's by hash
 * and its text hashes to one of the run's hashes. A manifest from before that copy was recorded holds
 * nothing of the scene but its hash: refused, saying so and how to start the run over (the caller's
 * `remedy`: `viscid run`'s or a sweep's own).
 *
 * A default whose value changed between releases: the earlier text holds the old value, today's
 * reading of a file that leaves the setting out the new one; that is a difference (the run would not
 * go on as it ran), refused with the setting named and the value to write into the file to resume.
 * A setting added with a default must therefore be the earlier behaviour at its default (else its
 * release migrates old scene text, scene/migrate.ts): what this comparison takes for granted.
 */
import type { EngineName } from '../index.ts';
import type { Scene } from '../scene/scene.ts';
import { parseScene, sceneMeshFiles } from '../index.ts';
import { sceneDifference, shownValue, type SceneDifference } from '../scene/difference.ts';
import { meshHash, meshHashes, sceneTextHash } from '../scene/hash.ts';
import { serializeScene } from '../scene/scene.ts';
import { printable } from './printable.ts';
import type { LoadedScene } from './load-scene.ts';
import type { Manifest } from './manifest.ts';
import { viscidVersion } from './version.ts';

/** The hashes a run's manifest takes as its scene's: the one it records and those earlier viscids wrote. */
export function runSceneHashes(m: Manifest): string[] {
  const earlier = Array.isArray(m.scene.earlier) ? m.scene.earlier : [];
  return [m.scene.sha256, ...earlier.map((e) => e?.sha256).filter((h): h is string => typeof h === 'string')];
}

/** A scene stored in one of the run's checkpoints (or its manifest), read under today's schema, and the label it was written under. */
export interface StoredScene {
  /** The checkpoint's engine; absent for the manifest's copy. */
  engine?: EngineName;
  file: string;
  scene: Scene;
  label: string;
}

/**
 * Null when `loaded` is the run's scene (by hash, or by comparison with the stored scenes whose
 * label is not this viscid's hash of the file); else why not, as the end of a sentence that starts
 * "<scene file> ". `remedy` ends the sentence where nothing could be compared; `startOver`, the
 * command that starts the run over (`viscid run`'s or a sweep's), ends it where a setting differs:
 * the user either writes the run's value back or runs the scene as it is now from frame 0.
 */
export function runSceneProblem(m: Manifest, loaded: LoadedScene, stored: readonly StoredScene[], shownFile: string, shownRun: string, remedy = '', startOver = ''): string | null {
  const over = startOver ? `; to run ${shownFile} as it is now instead, start over from frame 0: ${startOver}` : '';
  if (stored.length === 0 && m.scene.sha256 !== loaded.hash) {
    const own = manifestScene(m, loaded, shownFile);
    if (own && 'differs' in own) return `differs from the scene of the run in ${shownRun} (as its ${MANIFEST_FILE} stores it): ${own.differs}${over}`;
    if (own && 'problem' in own) return `cannot be compared with the scene of the run in ${shownRun}: ${own.problem}${remedy}`;
    if (own) stored = [own];
  }
  for (const s of stored) {
    if (s.label === loaded.hash) continue;
    const d = sceneDifference(s.scene, loaded.scene);
    if (d) return `differs from the scene of the run in ${shownRun} (as its ${s.file} stores it): ${differenceText(d, shownFile, loaded.text)}${over}`;
  }
  if (m.scene.sha256 === loaded.hash || stored.length > 0) return null;
  return (
    `hashes to another scene than the run's in ${shownRun} (sha256 ${loaded.hash.slice(0, 12)}… vs ${printable(m.scene.sha256.slice(0, 12))}…), and the run has no checkpoint ` +
    `that stores its scene to compare it with, setting by setting (the hash may be an earlier viscid's reading of the same file)${remedy}`
  );
}

/**
 * The manifest after a resume found `loaded` to be the run's scene under another hash: the hash it
 * had moves to `scene.earlier`, with what it was checked against, and this viscid's takes its place.
 * Returns the note to print, or null when the hash was this viscid's already.
 */
export function adoptSceneHash(m: Manifest, loaded: LoadedScene, stored: readonly StoredScene[], shownFile: string): string | null {
  if (m.scene.sha256 === loaded.hash) {
    if (m.scene.text === undefined) recordSceneText(m, loaded); // a manifest from before the copy was recorded
    return null;
  }
  const by = viscidVersion();
  const against = (stored.find((s) => s.label === m.scene.sha256) ?? stored[0])?.file ?? MANIFEST_FILE;
  const was = m.scene.sha256;
  m.scene.earlier = [
    ...(m.scene.earlier ?? []),
    {
      sha256: was,
      hashedBy: m.scene.hashedBy ?? m.viscid,
      replacedAt: new Date().toISOString(),
      replacedBy: by,
      checked: `the scene stored in ${against} and ${m.scene.file}, both read by viscid ${by}: no setting differs`,
    },
  ];
  m.scene.sha256 = loaded.hash;
  m.scene.hashedBy = by;
  recordSceneText(m, loaded);
  return (
    `the run's scene hash (${printable(was.slice(0, 12))}…) was written by another viscid's reading of the scene; ${shownFile} and the scene stored in ${against}, ` +
    `both read by this one (${by}), have no setting that differs, so the run goes on; the manifest keeps the earlier hash under scene.earlier`
  );
}

const MANIFEST_FILE = 'manifest.json';

/** The manifest's copy of the scene its hash is of: this viscid's text of `loaded` and its meshes' hashes. */
export function recordSceneText(m: Manifest, loaded: LoadedScene): void {
  m.scene.text = serializeScene(loaded.scene, 0);
  m.scene.meshes = meshHashes(loaded.scene.assets.meshes);
}

/**
 * The scene the manifest stores (`scene.text`), read under today's schema, when the file's meshes
 * are the stored ones by hash and the text with them hashes to one of the run's hashes (else it was
 * edited or damaged: a problem). Null for a manifest that stores none. A mesh file only one of the
 * two loads, or whose hash differs: `differs`, in differenceText's words.
 */
export function manifestScene(m: Manifest, loaded: LoadedScene, shownFile: string): StoredScene | { differs: string } | { problem: string } | null {
  const text = m.scene.text;
  if (typeof text !== 'string') return null;
  const damaged = (why: string) => ({ problem: `the scene text its ${MANIFEST_FILE} stores ${why} (the manifest was edited or damaged)` });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return damaged('is not JSON');
  }
  const stored = m.scene.meshes ?? {};
  const named = sceneMeshFiles(raw);
  if (named.length !== Object.keys(stored).length || named.some((f) => !Object.hasOwn(stored, f))) return damaged('names other mesh files than its mesh hashes');
  const today = loaded.scene.assets.meshes;
  for (const file of [...new Set([...named, ...Object.keys(today)])].sort()) {
    const a = Object.hasOwn(stored, file) ? true : undefined;
    const b = Object.hasOwn(today, file) ? true : undefined;
    if (!a || !b || stored[file] !== meshHash(today[file])) {
      return { differs: differenceText({ path: `mesh file ${JSON.stringify(file)}`, keys: [], a, b, mesh: file }, shownFile) };
    }
  }
  // The meshes are the file's, byte for byte: the text with them hashes to what the run recorded, or was changed.
  const label = sceneTextHash(text, today);
  if (!runSceneHashes(m).includes(label)) return damaged(`hashes to none of the run's scene hashes (sha256 ${label.slice(0, 12)}…)`);
  try {
    return { file: MANIFEST_FILE, scene: parseScene(text, { loadedMeshes: today }), label };
  } catch (e) {
    return { problem: `the scene its ${MANIFEST_FILE} stores is not a scene this viscid reads: ${printable((e as Error).message.slice(0, 300))}` };
  }
}

/** "particle.viscosity.value is 2 in the run, 3 in <file>", with the value to write where the file leaves the setting to a default. */
export function differenceText(d: SceneDifference, shownFile: string, fileText?: string): string {
  if (d.mesh !== undefined) {
    if (d.a === undefined) return `${printable(d.path)} is loaded by ${shownFile}, not by the run`;
    if (d.b === undefined) return `${printable(d.path)} is loaded by the run, not by ${shownFile}`;
    return `${printable(d.path)} holds other vertices or triangles than the run's`;
  }
  let text = `${printable(d.path)} is ${printable(shownValue(d.a))} in the run, ${printable(shownValue(d.b))} in ${shownFile}`;
  if (d.a !== undefined && fileText !== undefined && !givenIn(fileText, d.keys)) {
    text += ` (which leaves it to this viscid's default; write ${printable(shownValue(d.a))} there to go on as the run ran)`;
  }
  return text;
}

/** Whether the scene file's own JSON gives the setting at `keys` (false when it leaves it to a default). */
function givenIn(fileText: string, keys: readonly (string | number)[]): boolean {
  let v: unknown;
  try {
    v = JSON.parse(fileText);
  } catch {
    return true; // not plain JSON: say nothing about defaults
  }
  for (const k of keys) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) return false;
    v = (v as Record<string | number, unknown>)[k];
  }
  return true;
}
