/**
 * The README's generated blocks match what `npm run docs` would write now: the scene reference
 * (from the schema) and the CLI reference (from the commands' help). Fix a failure with `npm run docs`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sceneReferenceMarkdown } from '../../src/index.ts';
import { cliReference } from '../../src/cli/docs.ts';
import { replaceBetweenMarkers } from '../../src/cli/files.ts';
import { buildProgram } from '../../src/cli/main.ts';
import { cliInProcess, ROOT } from './helpers.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README generated blocks (run `npm run docs` if these fail)', () => {
  it('starts with the install-and-run and the test commands', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm ci && npx viscid run scenes\/honey-drop\.json/m);
    expect(firstBlock).toMatch(/^npm test$/m);
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('## '));
  });

  it('has the current scene reference', () => {
    expect(replaceBetweenMarkers(readme, 'scene-reference', sceneReferenceMarkdown())).toBe(readme);
  });

  it('has the current CLI reference', () => {
    expect(replaceBetweenMarkers(readme, 'cli', cliReference(buildProgram()))).toBe(readme);
  });
});

describe('viscid docs', () => {
  it('fills emptied generated blocks back in and leaves the rest of the file alone', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'viscid-docs-'));
    try {
      const file = join(tmp, 'README.md');
      const emptied = replaceBetweenMarkers(replaceBetweenMarkers(readme, 'cli', ''), 'scene-reference', '');
      writeFileSync(file, emptied);
      const r = await cliInProcess(['docs', '--readme', file]);
      expect(r.code).toBe(0);
      const regenerated = readFileSync(file, 'utf8');
      expect(regenerated).toBe(replaceBetweenMarkers(replaceBetweenMarkers(emptied, 'cli', cliReference(buildProgram())), 'scene-reference', sceneReferenceMarkdown()));
      expect(regenerated).toContain('### `viscid run`');
      expect(regenerated).not.toContain('### `viscid docs`');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('replaceBetweenMarkers', () => {
  it('replaces only the marked block and refuses a file without markers', () => {
    const text = 'a\n<!-- x:start -->\nold\n<!-- x:end -->\nb\n';
    expect(replaceBetweenMarkers(text, 'x', 'new')).toBe('a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb\n');
    expect(() => replaceBetweenMarkers('no markers', 'x', 'new')).toThrow(/not found/);
  });
});
