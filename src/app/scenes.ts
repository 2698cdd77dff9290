/**
 * The scene catalogue: every scenes/*.json and every mesh file under scenes/, bundled by vite so
 * that the picker and mesh loading work the same in `vite` and in a built app.
 */
import { sceneMeshFiles } from '../scene/parse.ts';

const sceneFiles = import.meta.glob('/scenes/*.json', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;
const meshFiles = import.meta.glob('/scenes/**/*.obj', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

export const DEFAULT_SCENE = 'honey-drop';

/** Scene names (file names without `.json`), sorted, the default first. */
export function sceneNames(): string[] {
  const names = Object.keys(sceneFiles).map((p) => p.replace(/^\/scenes\//, '').replace(/\.json$/, ''));
  names.sort((a, b) => (a === DEFAULT_SCENE ? -1 : b === DEFAULT_SCENE ? 1 : a.localeCompare(b)));
  return names;
}

export async function sceneText(name: string): Promise<string> {
  const load = sceneFiles[`/scenes/${name}.json`];
  if (!load) throw new Error(`no scene named '${name}'; scenes: ${sceneNames().join(', ')}`);
  return load();
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

/**
 * The OBJ text of every mesh a scene names, relative to scenes/ (where the bundled scenes live).
 * `extra` holds files the user dropped with the scene, keyed by base name; they win.
 * Files that cannot be found are left out, so that parseScene names them in its error.
 */
export async function sceneMeshes(text: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  for (const file of sceneMeshFiles(raw)) {
    const base = file.split('/').pop() ?? file;
    if (extra[file] !== undefined) out[file] = extra[file];
    else if (extra[base] !== undefined) out[file] = extra[base];
    else {
      const load = meshFiles[normalize(`/scenes/${file}`)];
      if (load) out[file] = await load();
    }
  }
  return out;
}
