/**
 * One liquid's compacted half rows of the implicit viscosity (kernelReach below 1:
 * src/particle/viscosity-weiler-rows.ts compactedOneLiquid) listed into the pair codes' own room
 * (lendRows: the entries in the upper half of `coef`, the starts in the call's idle room) are the
 * rows, codes and blocks listed into memory of their own, entry for entry: where they fit in the
 * half (kernelReach 0.81, about 0.41 of the pair list) and where they outgrow it (0.9, about 0.56,
 * the entries then copied out and the codes going on past the half); and after a stage call the
 * rows hold no memory of their own.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { applyImplicitViscosity } from '../../src/particle/viscosity-weiler.ts';
import { halfRows } from '../../src/particle/viscosity-weiler-rows.ts';
import { CallRoom } from '../../src/particle/viscosity-weiler-boundary.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

function blob(reach: number): ParticleSimulation {
  const input: SceneInput = {
    gravity: [0, 0, 0],
    materials: { honey: { kind: 'liquid', density: 1400, viscosity: { value: 1, unit: 'Pa.s' }, particle: { kernelReach: reach } } },
    domain: { min: [-0.03, -0.03, -0.03], max: [0.03, 0.03, 0.03], boundary: 'open' },
    bodies: [{ material: 'honey', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.018 } }],
    particle: { radius: 0.002, viscositySolver: 'implicit' },
  };
  const s = createSimulation(parseScene(input), 'particle', { workers: 1 }) as ParticleSimulation;
  const L = s.ctx.liquid, n = L.count;
  let seed = 11;
  const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let o = 0; o < 3 * n; o++) L.pos[o] += (rnd() - 0.5) * 0.0016;
  s.ctx.cells.buildSorted(L);
  computeAdhesion(s.ctx);
  return s;
}

describe('the implicit viscosity\'s compacted rows in the codes\' room', () => {
  it.each([[0.81, true], [0.9, false]])('are the rows, codes and blocks of memory of their own (kernelReach %s, within the half: %s)', (reach, fits) => {
    const s = blob(reach), ctx = s.ctx, n = ctx.liquid.count;
    applyImplicitViscosity(ctx, 1 / 240);
    const st = ctx.viscositySolve!, pl = ctx.cells.pairs.length;
    // After the call the rows hold no memory of their own where they fitted.
    if (fits) expect(st.rows.j.length).toBe(0);
    const own = { coef: new Uint16Array(pl), pinv: new Float32Array(6 * n), root: new Float32Array(n) };
    const rows = halfRows(ctx, st, n, own.coef, own.pinv, own.root);
    const m = rows.start[n], start = rows.start.slice(0, n + 1), j = rows.j.slice(0, m);
    expect(m / pl).toBeGreaterThan(fits ? 0.3 : 0.5);
    expect(m / pl).toBeLessThan(fits ? 0.5 : 0.7);
    // The codes' room as the stage sizes it (the pair list's length): its upper half holds the entries where they fit.
    const lent = { coef: new Uint16Array(pl), pinv: new Float32Array(6 * n), root: new Float32Array(n) };
    const room = new CallRoom();
    room.add(new ArrayBuffer(8 * (n + 8)), 0, false);
    const lr = halfRows(ctx, st, n, lent.coef, lent.pinv, lent.root, room);
    expect(lr.j.buffer === lent.coef.buffer).toBe(fits);
    expect(room.holds(lr.start)).toBe(true);
    expect(Array.from(lr.start.subarray(0, n + 1))).toEqual(Array.from(start));
    expect(Array.from(lr.j.subarray(0, m))).toEqual(Array.from(j));
    expect(Array.from(lent.coef.subarray(0, m))).toEqual(Array.from(own.coef.subarray(0, m)));
    expect(Array.from(lent.pinv)).toEqual(Array.from(own.pinv));
    s.dispose();
  });
});
