/**
 * The README's generated blocks match what `npm run docs` would write now: the scene reference
 * (from the schema) and the CLI reference (from the commands' help). Fix a failure with `npm run docs`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sceneReferenceMarkdown } from '../../src/index.ts';
import { cliReference } from '../../src/cli/docs.ts';
import { replaceBetweenMarkers } from '../../src/cli/files.ts';
import { buildProgram } from '../../src/cli/main.ts';
import { ROOT } from './helpers.ts';

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

describe('replaceBetweenMarkers', () => {
  it('replaces only the marked block and refuses a file without markers', () => {
    const text = 'a\n<!-- x:start -->\nold\n<!-- x:end -->\nb\n';
    expect(replaceBetweenMarkers(text, 'x', 'new')).toBe('a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb\n');
    expect(() => replaceBetweenMarkers('no markers', 'x', 'new')).toThrow(/not found/);
  });
});
