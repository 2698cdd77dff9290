/**
 * Checks across fields (src/scene/checks.ts and the caps in parse.ts): every scene that would end
 * in an internal error or an unbounded frame is refused at parse time, at its own JSON path.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxMessage, MAX_SCENE_CHARS, parseScene, SceneError } from '../../src/scene/parse.ts';
import { MAX_GRID_STEPS_PER_FRAME, MAX_MATERIALS } from '../../src/scene/checks.ts';

const TINY = JSON.parse(readFileSync(new URL('../cli/fixtures/tiny.json', import.meta.url), 'utf8'));
const tiny = () => structuredClone(TINY);

function refusal(input: unknown): SceneError {
  try {
    parseScene(input);
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return e as SceneError;
  }
  throw new Error('expected a SceneError');
}

/** The one issue of a refused scene, which must be at `path`. */
function onlyIssue(input: unknown, path: string) {
  const e = refusal(input);
  expect(e.issues.map((i) => i.path), e.message).toEqual([path]);
  return e.issues[0];
}

describe('directions that must not be zero', () => {
  it('refuses a zero plane normal, cylinder axis, spin axis and source direction at their paths', () => {
    const plane = tiny();
    plane.bodies[0].shape = { type: 'plane', point: [0, 0, 0], normal: [0, 0, 0] };
    expect(onlyIssue(plane, 'bodies[0].shape.normal').message).toMatch(/plane normal must not be zero/);

    const cylinder = tiny();
    cylinder.sinks = [{ shape: { type: 'cylinder', center: [0, -1, 0], radius: 0.1, height: 0.1, axis: [0, 0, 0] } }];
    expect(onlyIssue(cylinder, 'sinks[0].shape.axis').message).toMatch(/cylinder axis must not be zero/);

    const spin = tiny();
    spin.bodies[0].motion = { type: 'spin', center: [0, 0, 0], axis: [0, 0, 0], rate: 1 };
    expect(onlyIssue(spin, 'bodies[0].motion.axis').message).toMatch(/spin axis must not be zero/);

    const source = tiny();
    source.sources = [{ material: 'syrup', center: [0, 0.2, 0], direction: [0, 0, 0], speed: 1 }];
    expect(onlyIssue(source, 'sources[0].direction').message).toMatch(/emission direction must not be zero/);
  });

  it('refuses a plane that moves freely (it has no finite mass)', () => {
    const s = tiny();
    s.materials.floor.density = 500;
    s.bodies[0].shape = { type: 'plane', point: [0, 0, 0] };
    s.bodies[0].motion = { type: 'free' };
    expect(onlyIssue(s, 'bodies[0].motion').message).toMatch(/a plane cannot move freely/);
  });

  it('accepts tiny but non-zero directions', () => {
    const s = tiny();
    s.sources = [{ material: 'syrup', center: [0, 0.2, 0], direction: [0, -1e-300, 0], speed: 1, end: 0.01 }];
    expect(() => parseScene(s)).not.toThrow();
  });
});

describe('grid time steps', () => {
  it('refuses grid.minDt above grid.maxDt', () => {
    const s = tiny();
    s.grid = { minDt: 1, maxDt: 1e-3 };
    const issue = onlyIssue(s, 'grid.minDt');
    expect(issue.message).toMatch(/must not exceed grid\.maxDt \(0\.001 s\)/);
    expect(issue.value).toBe(1);
  });

  it(`refuses a grid.maxDt that forces more than ${MAX_GRID_STEPS_PER_FRAME} steps a frame, and accepts the bound`, () => {
    const s = tiny();
    s.grid = { minDt: 1e-12, maxDt: 1e-9 };
    const issue = onlyIssue(s, 'grid.maxDt');
    expect(issue.message).toMatch(/forces 33,333,334 grid steps a frame at 30 fps/);
    expect(issue.message).toMatch(/must be ≥ 3\.33e-6 s/);
    const ok = tiny();
    ok.grid = { minDt: 1e-9, maxDt: 1 / (30 * MAX_GRID_STEPS_PER_FRAME) };
    expect(() => parseScene(ok)).not.toThrow();
  });
});

describe('liquid inside the domain', () => {
  const withDomain = () => {
    const s = tiny();
    s.domain = { min: [-0.1, -0.05, -0.1], max: [0.1, 0.2, 0.1] };
    return s;
  };

  it('refuses a liquid body wholly outside the domain, naming both boxes', () => {
    const s = withDomain();
    s.bodies[1].shape.center = [1, 1, 1];
    expect(onlyIssue(s, 'bodies[1].shape').message).toMatch(/wholly outside the domain: it spans \[0\.96, 0\.96, 0\.96\] to \[1\.04, 1\.04, 1\.04\], the domain \[-0\.1, -0\.05, -0\.1\] to \[0\.1, 0\.2, 0\.1\]/);
  });

  it('refuses a source whose centre is outside the domain', () => {
    const s = withDomain();
    s.sources = [{ material: 'syrup', center: [0, 0.5, 0], speed: 1 }];
    expect(onlyIssue(s, 'sources[0].center').message).toMatch(/must lie inside the domain/);
  });

  it('accepts liquid that overlaps the domain, a solid outside it, and a source on its face', () => {
    const s = withDomain();
    s.bodies[1].shape.center = [0.1, 0.06, 0];
    s.bodies.push({ material: 'floor', shape: { type: 'sphere', center: [5, 5, 5], radius: 0.1 } });
    s.sources = [{ material: 'syrup', center: [0, 0.2, 0], speed: 1, end: 0.1 }];
    expect(() => parseScene(s)).not.toThrow();
  });
});

describe('ranges that used to end in internal errors', () => {
  it('refuses absurd rotations and kernel widths with the allowed range', () => {
    const rot = tiny();
    rot.bodies[1].shape.rotation = [1e308, 0, 0];
    expect(onlyIssue(rot, 'bodies[1].shape.rotation[0]').message).toBe('must be ≤ 360000');
    const kernel = tiny();
    kernel.output.kernelWidth = 1e4;
    expect(onlyIssue(kernel, 'output.kernelWidth').message).toBe('must be ≤ 8');
  });

  it('refuses a surface lattice over limits.maxCells at output.resolution', () => {
    const s = tiny();
    s.output.resolution = 0.1; // 64 liquid particles, but 8e5 lattice cells each side of the cap
    s.limits = { maxCells: 100_000 };
    const issue = onlyIssue(s, 'output.resolution');
    expect(issue.message).toMatch(/lattice of about [\d,]+ cells \(particle engine\), over limits\.maxCells \(100,000\)/);
  });

  it(`refuses more than ${MAX_MATERIALS} materials and overlong names and descriptions`, () => {
    const many = tiny();
    for (let i = 0; i <= MAX_MATERIALS; i++) many.materials[`m${i}`] = { kind: 'solid' };
    expect(onlyIssue(many, 'materials').message).toMatch(/at most 256/);
    const long = tiny();
    long.description = 'x'.repeat(10_001);
    expect(onlyIssue(long, 'description').message).toBe('allows at most 10000 characters');
  });

  it('refuses a sink that ends before it starts', () => {
    const s = tiny();
    s.sinks = [{ shape: { type: 'sphere', center: [0, -1, 0], radius: 0.1 }, start: 2, end: 1 }];
    expect(onlyIssue(s, 'sinks[0].end').message).toMatch(/must be after start/);
  });

  it('refuses scene text over the size limit before parsing it', () => {
    const text = JSON.stringify({ ...tiny(), description: '' }) + ' '.repeat(MAX_SCENE_CHARS);
    expect(onlyIssue(text, '').message).toMatch(/scene text is too large/);
  });
});

describe('JSON syntax errors', () => {
  it('say where without quoting the text', () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1';
    const e = refusal(secret);
    expect(e.message).not.toMatch(/root|bash|daemon/);
    expect(e.message).toMatch(/not valid JSON: unexpected character \(line 1, column 1\)/);
    const late = `{\n  "fps": 30,\n  "name": "abcdefghijklmnop", "x": secret}`;
    expect(jsonSyntaxMessage(late, catchJson(late))).toBe('unexpected character (line 3, column 36)');
    const comma = '{"a": 1,}';
    expect(jsonSyntaxMessage(comma, catchJson(comma))).toBe('Expected double-quoted property name (line 1, column 9)');
    expect(jsonSyntaxMessage('', catchJson(''))).toBe('Unexpected end of JSON input');
  });
});

function catchJson(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (e) {
    return e;
  }
  throw new Error('expected a syntax error');
}

describe('what only an engine can tell', () => {
  it('a free body smaller than the grid samples stops the grid engine with a SimulationError at setup', async () => {
    const { createSimulation, SimulationError } = await import('../../src/index.ts');
    const s = tiny();
    s.materials.cork = { kind: 'solid', density: 200 };
    s.bodies.push({ material: 'cork', shape: { type: 'sphere', center: [0.05, 0.1, 0.05], radius: 0.001 }, motion: { type: 'free' } });
    s.grid = { cellSize: 0.04 };
    const scene = parseScene(s); // the particle engine runs it
    let error: unknown;
    try {
      createSimulation(scene, 'grid').stepFrame();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SimulationError);
    expect((error as InstanceType<typeof SimulationError>).stage).toBe('setup');
    expect((error as Error).message).toMatch(/free body '.*' is too small for grid\.cellSize 0\.04 m: .* \(make it larger, or grid\.cellSize smaller\)/);
  });
});
