import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScene, SceneError, serializeScene } from '../../src/index.ts';
import { MAX_SCENE_NODES } from '../../src/scene/parse.ts';

const HONEY = JSON.parse(readFileSync(new URL('../../scenes/honey-drop.json', import.meta.url), 'utf8'));
const base = () => structuredClone(HONEY);

function sceneError(input: unknown, options?: Parameters<typeof parseScene>[1]): SceneError {
  try {
    parseScene(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return e as SceneError;
  }
  throw new Error('expected a SceneError');
}

const paths = (e: SceneError) => e.issues.map((i) => i.path);
const issueAt = (e: SceneError, path: string) => {
  const found = e.issues.find((i) => i.path === path);
  if (!found) throw new Error(`no issue at ${path}; issues:\n${e.message}`);
  return found;
};

const CUBE_OBJ = 'v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n';

describe('parseScene', () => {
  it('fills defaults (including prefault objects) and keeps given values', () => {
    const s = parseScene({ materials: { w: { kind: 'liquid', viscosity: { value: 1e-6, unit: 'm2/s' } } } });
    expect(s.fps).toBe(30);
    expect(s.gravity).toEqual([0, -9.81, 0]);
    expect(s.particle.radius).toBe(0.004);
    expect(s.grid.tracking).toBe('particle-levelset');
    expect(s.limits.maxParticles).toBe(2_000_000);
    const w = s.materials.w;
    expect(w.kind === 'liquid' && w.particle.kernelSupport).toBe(5);
    expect(w.kind === 'liquid' && w.grid.viscosityModel).toBe('variational');
    expect(s.materialNames).toEqual(['w']);
    expect(Object.keys(s)).not.toContain('assets');
  });

  it('gives every parse its own default objects (no shared mutable defaults)', () => {
    const input = { materials: { b: { kind: 'solid' } }, bodies: [{ material: 'b', shape: { type: 'box', center: [0, 0, 0], size: [1, 1, 1] } }] };
    const a = parseScene(input), b = parseScene(input);
    expect(a.bodies[0].motion).not.toBe(b.bodies[0].motion);
    expect(a.gravity).not.toBe(b.gravity);
  });

  it('round-trips: parse -> serializeScene -> parse is stable', () => {
    const once = parseScene(HONEY);
    const text = serializeScene(once);
    const twice = parseScene(JSON.parse(text));
    expect(twice).toEqual(once);
    expect(serializeScene(twice)).toBe(text);
    // A string input is parsed as JSON text.
    expect(parseScene(text)).toEqual(once);
  });

  it('reports five distinct mistakes in one SceneError naming all five paths', () => {
    const s = base();
    s.fps = -3; // range
    s.materials.honey.viscosity.unit = 'cP'; // enum
    s.bodies[0].shape.type = 'blob'; // discriminator
    s.bodies[1].material = 'hony'; // cross reference
    s.particle.radus = 0.001; // unknown key
    const e = sceneError(s);
    expect(paths(e).sort()).toEqual(['bodies[0].shape.type', 'bodies[1].material', 'fps', 'materials.honey.viscosity.unit', 'particle.radus'].sort());
    expect(issueAt(e, 'fps').message).toBe('must be ≥ 1');
    expect(issueAt(e, 'fps').value).toBe(-3);
    expect(issueAt(e, 'materials.honey.viscosity.unit').message).toBe('must be one of "m2/s", "Pa.s"');
    expect(issueAt(e, 'bodies[0].shape.type').message).toMatch(/must be one of "box", "sphere", "cylinder", "capsule", "plane", "mesh"/);
    expect(issueAt(e, 'bodies[1].material').message).toMatch(/no material of that name; materials: 'honey', 'ball'/);
    expect(issueAt(e, 'particle.radus').message).toMatch(/unknown key — did you mean 'radius'\? \(allowed here: radius, substeps/);
    expect(e.message).toMatch(/^scene has 5 problems:/);
    expect(e.message).toContain('fps: must be ≥ 1 (got -3)');
  });

  it('treats unknown keys as errors at every level, listing what is allowed', () => {
    const s = base();
    s.colour = 'red';
    s.materials.ball.frction = 0.1;
    s.bodies[0].shape.centre = [0, 0, 0];
    s.adhesion[0].strenght = 1;
    const e = sceneError(s);
    expect(issueAt(e, 'colour').message).toMatch(/^unknown key/);
    expect(issueAt(e, 'materials.ball.frction').message).toMatch(/did you mean 'friction'.*allowed here: kind, friction, density, color/);
    expect(issueAt(e, 'bodies[0].shape.centre').message).toMatch(/did you mean 'center'.*allowed here: type, center, radius/);
    expect(issueAt(e, 'adhesion[0].strenght').message).toMatch(/did you mean 'strength'/);
  });

  it('refuses non-finite numbers, saying so and showing the value', () => {
    const s = base();
    s.duration = Infinity;
    s.gravity = [0, NaN, 0];
    s.bodies[0].shape.radius = -Infinity;
    const e = sceneError(s);
    expect(issueAt(e, 'duration').message).toBe('must be a finite number');
    expect(issueAt(e, 'gravity[1]').message).toBe('must be a finite number');
    expect(issueAt(e, 'bodies[0].shape.radius').message).toBe('must be a finite number');
    expect(e.message).toContain('(got NaN)');
    // JSON text cannot hold Infinity, but 1e999 overflows to it.
    expect(issueAt(sceneError(JSON.stringify(base()).replace('"fps":30', '"fps":1e999')), 'fps').message).toBe('must be a finite number');
  });

  it('explains unions by the branch that was meant', () => {
    const s = base();
    s.adhesion[0].type = 'lj'; // a named function with a typo: the named branch is meant
    s.adhesion[1] = { between: ['honey', 'ball'], points: [[0, 1]] }; // points branch: too few points
    s.domain = { min: [0, 0, 0], max: [1, 1, 1], boundary: { type: 'moving' } };
    s.materials.ball.color = [1, 2, 0];
    s.bodies[0].motion = { type: 'spin', center: [0, 0, 0], rate: '3' };
    const e = sceneError(s);
    expect(issueAt(e, 'adhesion[0].type').message).toBe('must be one of "lennard-jones", "attract", "repel"');
    expect(issueAt(e, 'adhesion[1].points').message).toBe('needs at least 2 items');
    expect(issueAt(e, 'domain.boundary.velocity').message).toBe('required: an array of 3 values');
    expect(issueAt(e, 'materials.ball.color[1]').message).toBe('must be ≤ 1');
    expect(issueAt(e, 'bodies[0].motion.rate').message).toBe('expected a number, got a string');
    s.domain.boundary = 'sticky';
    expect(issueAt(sceneError(s), 'domain.boundary').message).toMatch(/must be one of "noslip", "slip", "open"; or expected an object/);
  });

  it('runs cross-reference checks even when the schema found other problems', () => {
    const s = base();
    s.fps = 'fast';
    s.bodies[0].material = 'steel';
    s.adhesion[1].between = ['honey', 'glass'];
    s.adhesion.push({ between: ['ball', 'honey'], type: 'repel', strength: 1 });
    s.domain = { min: [0, 0, 0], max: [1, 0, 1] };
    s.sources = [{ material: 'ball', center: [0, 0, 0], speed: 1, start: 2, end: 1 }];
    const e = sceneError(s);
    expect(paths(e)).toEqual(
      expect.arrayContaining(['fps', 'bodies[0].material', 'adhesion[1].between[1]', 'domain.max[1]', 'sources[0].material', 'sources[0].end']),
    );
    expect(issueAt(e, 'sources[0].material').message).toMatch(/must name a liquid material, 'ball' is a solid/);
  });

  it('loads mesh bodies from supplied OBJ text and reports mesh problems at the file path', () => {
    const s = base();
    s.bodies[0].shape = { type: 'mesh', file: 'cube.obj', scale: 0.05 };
    const scene = parseScene(s, { meshes: { 'cube.obj': CUBE_OBJ } });
    expect(scene.assets.meshes['cube.obj'].indices.length).toBe(36);
    expect(JSON.parse(serializeScene(scene)).bodies[0].shape.file).toBe('cube.obj');
    expect(issueAt(sceneError(s), 'bodies[0].shape.file').message).toMatch(/mesh file was not supplied/);
    const open = sceneError(s, { meshes: { 'cube.obj': CUBE_OBJ.replace('f 4 1 5 8\n', '') } });
    expect(issueAt(open, 'bodies[0].shape.file').message).toMatch(/^cube\.obj: mesh is not closed/);
    // A name that is also an Object.prototype member is not taken from the prototype.
    s.bodies[0].shape.file = 'constructor';
    expect(issueAt(sceneError(s, { meshes: {} }), 'bodies[0].shape.file').message).toMatch(/not supplied/);
  });

  it('refuses a scene over the particle or cell cap with the estimate, before allocating', () => {
    const s = base();
    s.particle.radius = 0.0002;
    const e = sceneError(s);
    expect(e.issues).toHaveLength(1);
    expect(e.issues[0].path).toBe('limits.maxParticles');
    expect(e.issues[0].message).toMatch(/needs about [\d,]+ particles \([\d,]+ liquid \+ [\d,]+ object\), over the cap of 2,000,000/);
    const cells = sceneError(base(), { maxCells: 1000 });
    expect(cells.issues[0].path).toBe('limits.maxCells');
    expect(cells.issues[0].message).toMatch(/needs about [\d,]+ cells, over the cap of 1,000/);
    // The scene's own limit can be raised.
    s.limits = { maxParticles: 10_000_000, maxCells: 40_000_000 }; // the surface lattice grows with them
    expect(parseScene(s).particle.radius).toBe(0.0002);
  });

  it('ends pathological input as one SceneError: cycles, depth, size, prototype keys, throwing getters', () => {
    const cyclic = base();
    cyclic.bodies[0].shape.self = cyclic;
    expect(sceneError(cyclic).message).toMatch(/bodies\[0\]\.shape\.self: the scene refers to itself/);

    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(sceneError({ materials: {}, bodies: deep }).message).toMatch(/nested too deeply/);

    const huge = base();
    huge.adhesion = new Array(MAX_SCENE_NODES + 1).fill(0);
    expect(sceneError(huge).message).toMatch(/adhesion: array is too long/);

    const many = base();
    many.bodies = Array.from({ length: 2000 }, () => ({}));
    const m = sceneError(many);
    expect(m.issues).toHaveLength(101);
    expect(m.issues[100].message).toMatch(/and 3,900 more problems/);
    expect(m.message).toMatch(/^scene has 4000 problems:/);

    const proto = sceneError('{"__proto__": {"fps": 1}, "materials": {"__proto__": {"kind": "solid"}}}');
    expect(paths(proto).sort()).toEqual(['__proto__', 'materials["__proto__"]']);
    expect(({} as Record<string, unknown>).fps).toBeUndefined();

    const getter = base();
    Object.defineProperty(getter, 'fps', { enumerable: true, get: () => { throw new Error('boom'); } });
    expect(sceneError(getter).message).toMatch(/cannot be read as a scene: boom/);

    for (const v of [undefined, null, 3, 'nope', '[]', [], true, () => 1, Symbol('s'), 10n]) expect(sceneError(v)).toBeInstanceOf(SceneError);
  });
});
