import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sceneJsonSchema, sceneReferenceMarkdown } from '../../src/index.ts';
import { sceneJsonSchemaText } from '../../src/scene/json-schema.ts';

type Js = Record<string, any>;

describe('scene.schema.json', () => {
  it('the committed file equals the generated one (regenerate with `npm run schema`)', () => {
    const committed = readFileSync(new URL('../../scene.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(sceneJsonSchemaText());
  });

  it('keeps descriptions, defaults, ranges, enums and strictness (input view: defaults are optional)', () => {
    const s = sceneJsonSchema() as Js;
    expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.additionalProperties).toBe(false);
    expect(s.required).toEqual(['materials']);
    expect(s.properties.fps).toMatchObject({ type: 'number', default: 30, minimum: 1, maximum: 1000, description: 'Frames per second.' });
    expect(s.properties.particle.properties.substeps).toMatchObject({ type: 'integer', default: 4, minimum: 1 });
    expect(s.properties.particle.required ?? []).toEqual([]);
    const viscosity = s.properties.materials.additionalProperties.oneOf[0].properties.viscosity;
    expect(viscosity.properties.unit.enum).toEqual(['m2/s', 'Pa.s']);
    expect(viscosity.additionalProperties).toBe(false);
  });
});

describe('sceneReferenceMarkdown', () => {
  const md = sceneReferenceMarkdown();
  const row = (path: string) => md.split('\n').find((l) => l.startsWith(`| \`${path}\` |`));

  it('has one row per field with type, default, range and description', () => {
    expect(row('fps')).toBe('| `fps` | number |  | `30` | ≥ 1, ≤ 1000 | Frames per second. |');
    expect(row('materials.<name>.viscosity.unit')).toMatch(/^\| `materials\.<name>\.viscosity\.unit` \| "m2\/s" \\\| "Pa\.s" \| yes \|/);
    expect(row('particle.radius')).toMatch(/\| `0\.004` \| > 0 \| Liquid particle radius r, m\./);
    expect(row('bodies[].shape')).toMatch(/object with `type`: "box" \\\| "sphere"/);
    expect(md).toContain('*type: "sphere":* Radius, m.');
    expect(row('limits.maxParticles')).toMatch(/`2000000`/);
  });

  it('covers every leaf the JSON Schema declares (no field is missing from the reference)', () => {
    const leaves: string[] = [];
    const visit = (s: Js, path: string) => {
      if (s.properties) for (const [k, v] of Object.entries<Js>(s.properties)) if (k !== '$schema') visit(v, path ? `${path}.${k}` : k);
      if (!s.properties && !s.oneOf && !s.anyOf && s.type !== 'array' && path) leaves.push(path);
    };
    visit(sceneJsonSchema() as Js, '');
    expect(leaves.length).toBeGreaterThan(30);
    for (const leaf of leaves) expect(row(leaf), leaf).toBeDefined();
  });

  it('README.md carries the current reference between its markers (regenerate with `npm run docs`)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /<!-- scene-reference:start -->\n([\s\S]*?)<!-- scene-reference:end -->/.exec(readme);
    expect(block, 'README.md has no scene-reference markers').not.toBeNull();
    expect(block![1]).toBe(md);
  });

  it('is valid table markdown: every row has 6 cells (pipes inside cells escaped)', () => {
    for (const line of md.split('\n').filter((l) => l.startsWith('| `'))) {
      expect(line.replace(/\\\|/g, '').split('|').length - 2, line).toBe(6);
    }
  });
});
