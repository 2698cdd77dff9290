/**
 * The particle level set's minimum sheet thickness (src/grid/trackers/pls-cells.ts `keepSheets`): a
 * sheet thinner than a cell, at a slant to the grid, with escaped liquid particles in every cell its
 * middle passes through, becomes a whole layer of liquid cells (the cells a plane passes through
 * are face-connected): φ at the centres alone holds 10 of those 83 cells; the crease test on the
 * cell alone kept 52 (the cells the middle clips at a corner stayed air), with the face neighbours
 * all 83. Cells just outside a thick body's flat surface keep their φ. The mesh of that layer
 * (pls-sheet-points.ts, surface/sheet-field.ts): lines along the axes across the sheet meet the
 * meshed φ on every line with the sheet's particles as its points where the layer is held in
 * three cells of four, where trilinear φ at the held centres alone leaves holes at the others.
 */
import { describe, expect, it } from 'vitest';
import type { GridSimulation } from '../../../src/grid/step.ts';
import { SOLID } from '../../../src/grid/store.ts';
import { inSheet, keepSheets } from '../../../src/grid/trackers/pls-cells.ts';
import { withSheetPoints } from '../../../src/grid/trackers/pls-sheet-points.ts';
import { seedSheets } from '../../../src/grid/trackers/pls-sheet-seeds.ts';
import { levelSetLattice } from '../../../src/surface/level-set.ts';
import { trackingSim } from './rotation.ts';

const n = 32, h = 1 / n;
const normal = (() => { const v = [1, 2.3, 0.6], l = Math.hypot(...v); return v.map((x) => x / l); })();
const offset = (x: number, y: number, z: number) => normal[0] * (x - 0.35) + normal[1] * (y - 0.35) + normal[2] * (z - 0.35);
/** Half the extent of a cell along the normal: the plane passes through a cell whose centre is within it. */
const reach = 0.5 * h * (Math.abs(normal[0]) + Math.abs(normal[1]) + Math.abs(normal[2]));

/** Flags the inner cells (0.25–0.45 on each axis, away from the edges of the seeded box) the midplane passes through. */
function flagCrossed(sim: GridSimulation): { flags: Uint8Array; cells: number[] } {
  const s = sim.store, flags = new Uint8Array(s.count), cells: number[] = [];
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    const ijk = [s.ci[c], s.cj[c], s.ck[c]];
    if (!ijk.every((i) => i >= 0.25 * n && i < 0.45 * n)) continue;
    const x = (ijk[0] + 0.5) * h, y = (ijk[1] + 0.5) * h, z = (ijk[2] + 0.5) * h;
    if (Math.abs(offset(x, y, z)) <= reach) { flags[c] = 1; cells.push(c); }
  }
  return { flags, cells };
}

describe('particle level set: the minimum sheet thickness', () => {
  it('keeps a slanted sheet a fifth of a cell thick as a whole layer of liquid cells', () => {
    const sim = trackingSim('levelset', n, false, (x, y, z) => Math.abs(offset(x, y, z)) - 0.1 * h);
    const { flags, cells } = flagCrossed(sim);
    const phi = sim.store.phi;
    const before = cells.filter((c) => phi[c] < 0).length;
    keepSheets(sim.store, flags, -0.1 * h, h);
    const after = cells.filter((c) => phi[c] < 0).length;
    console.log(`slanted sheet 0.2 h thick: ${cells.length} cells crossed by its middle, ${before} liquid at their centres, ${after} with the rule`);
    expect(cells.length).toBeGreaterThan(60);
    expect(before).toBeLessThan(0.5 * cells.length);
    expect(after).toBe(cells.length);
  });

  it("leaves the cells just outside a thick body's flat surface as they were", () => {
    const sim = trackingSim('levelset', n, false, (x, y, z) => offset(x, y, z) - 0.1 * h);
    const { flags, cells } = flagCrossed(sim);
    const phi = sim.store.phi, was = cells.map((c) => phi[c]);
    keepSheets(sim.store, flags, -0.1 * h, h);
    expect(cells.length).toBeGreaterThan(60);
    expect(cells.map((c) => phi[c])).toEqual(was);
  });

  it("meshes a layer held in three cells of four as a whole sheet through its particles, and nothing beyond their reach", () => {
    const sim = trackingSim('levelset', n, false, (x, y, z) => Math.abs(offset(x, y, z)) - 0.1 * h);
    const { flags, cells } = flagCrossed(sim);
    let r = 12345;
    const rand = () => ((r = (Math.imul(r, 1103515245) + 12345) >>> 0) / 4294967296);
    // Escaped particles in a random three of four of the cells the middle crosses (the others' stayed inside φ this step).
    for (const c of cells) if (rand() >= 0.75) flags[c] = 0;
    keepSheets(sim.store, flags, -0.1 * h, h);
    // Liquid particles on the midplane over the held cells' region, four a cell's area (a fixed LCG).
    const e1 = [normal[1], -normal[0], 0].map((v, _, a) => v / Math.hypot(a[0], a[1], a[2]));
    const e2 = [normal[1] * e1[2] - normal[2] * e1[1], normal[2] * e1[0] - normal[0] * e1[2], normal[0] * e1[1] - normal[1] * e1[0]];
    const inner = (p: number[]) => p.every((v) => v >= 0.25 + 0.5 * h && v < 0.45 - 0.5 * h);
    const onPlane = (a: number, b: number) => [0, 1, 2].map((k) => 0.35 + a * e1[k] + b * e2[k]);
    const pos: number[] = [];
    for (let q = 0; pos.length < 3 * 4 * 60; q++) {
      const p = onPlane((rand() - 0.5) * 0.3, (rand() - 0.5) * 0.3);
      if (inner(p)) pos.push(...p);
    }
    const count = pos.length / 3, particles = { count, pos: Float64Array.from(pos), radius: new Float64Array(count).fill(-0.1 * h) };
    const job = withSheetPoints(sim.tracker.surfaceJob(sim, [1, 1, 1]), sim, particles);
    if (job.kind !== 'levelset') throw new Error('a level-set job');
    expect(job.input.sheetPoints?.length).toBe(3 * count);
    const output = { resolution: 1 };
    const withSheet = levelSetLattice(job.input, output)!, without = levelSetLattice({ ...job.input, sheetPoints: undefined }, output)!;
    const at = (lat: NonNullable<typeof withSheet>, x: number, y: number, z: number) => {
      const u = (x - lat.origin[0]) / lat.spacing, v = (y - lat.origin[1]) / lat.spacing, w = (z - lat.origin[2]) / lat.spacing;
      const i = Math.floor(u), j = Math.floor(v), k = Math.floor(w), fu = u - i, fv = v - j, fw = w - k;
      let f = 0;
      for (let c = 0; c < 8; c++) {
        const a = c & 1, b = (c >> 1) & 1, d = (c >> 2) & 1;
        f += (a ? fu : 1 - fu) * (b ? fv : 1 - fv) * (d ? fw : 1 - fw) * lat.values[i + a + lat.nx * (j + b + lat.ny * (k + d))];
      }
      return f;
    };
    // Lines along each axis through the midplane (a slant to the sheet, as a viewer's rays meet a
    // draped sheet), over the particles' region less a cell at its edge, as far as the layer reaches.
    const crosses = (lat: NonNullable<typeof withSheet>, p: number[], axis: number) => {
      const reachAlong = (1.5 * h) / Math.abs(normal[axis]);
      for (let t = -reachAlong; t <= reachAlong; t += h / 40) {
        const q = [p[0], p[1], p[2]];
        q[axis] += t;
        if (at(lat, q[0], q[1], q[2]) < 0) return true;
      }
      return false;
    };
    let lines = 0, whole = 0, plain = 0;
    for (let axis = 0; axis < 3; axis++) {
      for (let a = -0.15; a <= 0.15; a += h / 7) {
        for (let b = -0.15; b <= 0.15; b += h / 7) {
          const p = onPlane(a, b);
          if (!p.every((v) => v >= 0.25 + 1.5 * h && v < 0.45 - 1.5 * h)) continue;
          lines++;
          if (crosses(withSheet, p, axis)) whole++;
          if (crosses(without, p, axis)) plain++;
        }
      }
    }
    // Beyond the particles' reach (a cell) and the meshed half-thickness the lattice is as without them.
    let far = 0, same = 0;
    for (let v = 0; v < withSheet.values.length; v++) {
      const i = v % withSheet.nx, j = Math.floor(v / withSheet.nx) % withSheet.ny, k = Math.floor(v / (withSheet.nx * withSheet.ny));
      const x = withSheet.origin[0] + i * withSheet.spacing, y = withSheet.origin[1] + j * withSheet.spacing, z = withSheet.origin[2] + k * withSheet.spacing;
      let near = false;
      for (let q = 0; q < count && !near; q++) near = Math.hypot(x - pos[3 * q], y - pos[3 * q + 1], z - pos[3 * q + 2]) < 1.01 * h;
      if (near) continue;
      far++;
      if (withSheet.values[v] === without.values[v]) same++;
    }
    console.log(`held layer meshed: ${whole} of ${lines} lines along the axes across it meet the sheet with its particles, ${plain} on φ alone; ${same} of ${far} lattice points beyond the particles' reach unchanged`);
    expect(lines).toBeGreaterThan(300);
    expect(whole).toBe(lines);
    expect(plain).toBeLessThan(0.9 * lines);
    expect(same).toBe(far);
  });

  it('takes no sheet point from a liquid particle a cell or more out in the air, though φ dimples there', () => {
    // spout-fill at 3 s: escaped liquid particles left against the walls in the box's corners as the
    // pool drains, in cells 1.6–2.6 h out whose φ dimples along a wall (2.85, 2.46, 2.60 h along x),
    // passed the crease test and were meshed as flecks over the pool. A sheet's own cells hold φ at
    // −0.1 h and the cells it passes through read up to 1.3 h (the case above): those still give
    // their particles.
    const sim = trackingSim('levelset', n, false, (x, y, z) => offset(x, y, z) - 0.1 * h);
    const s = sim.store;
    const inner = (c: number) => s.type[c] !== SOLID && [0, 1, 2, 3, 4, 5].every((e) => s.nb[6 * c + e] >= 0 && s.type[s.nb[6 * c + e]] !== SOLID);
    const pick = (lo: number, hi: number) => {
      for (let c = 0; c < s.count; c++) if (s.phi[c] > lo * h && s.phi[c] < hi * h && inner(c)) return c;
      throw new Error(`no cell with φ in (${lo}, ${hi}) h`);
    };
    const far = pick(2.3, 2.7), near = pick(0.3, 0.7);
    for (const c of [far, near]) s.phi[c] -= 0.6 * h; // a dimple: positive second differences along the axes
    expect(inSheet(s, far, h)).toBe(true);
    expect(inSheet(s, near, h)).toBe(true);
    const centre = (c: number) => [s.ci[c], s.cj[c], s.ck[c]].map((i, a) => sim.d.origin[a] + (i + 0.5) * h);
    const particles = { count: 2, pos: Float64Array.from([...centre(far), ...centre(near)]), radius: new Float64Array(2).fill(-0.1 * h) };
    const job = withSheetPoints(sim.tracker.surfaceJob(sim, [1, 1, 1]), sim, particles);
    if (job.kind !== 'levelset') throw new Error('a level-set job');
    expect(Array.from(job.input.sheetPoints ?? [])).toEqual(centre(near));
  });

  it('seeds a liquid particle on the sheet in each held cell its particles have left, and none off it (sheetSeeds)', () => {
    const sim = trackingSim('levelset', n, false, (x, y, z) => Math.abs(offset(x, y, z)) - 0.1 * h);
    const { flags, cells } = flagCrossed(sim);
    keepSheets(sim.store, flags, -0.1 * h, h);
    // Two particles on the midplane in every crossed cell but one in five (a fixed LCG), then seeding.
    let r = 777;
    const rand = () => ((r = (Math.imul(r, 1103515245) + 12345) >>> 0) / 4294967296);
    const e1 = [normal[1], -normal[0], 0].map((v, _, a) => v / Math.hypot(a[0], a[1], a[2]));
    const e2 = [normal[1] * e1[2] - normal[2] * e1[1], normal[2] * e1[0] - normal[0] * e1[2], normal[0] * e1[1] - normal[1] * e1[0]];
    const s = sim.store, emptied = new Set<number>();
    const particles = { count: 0, pos: new Float64Array(3 * 1024), radius: new Float64Array(1024), add(x: number, y: number, z: number, rad: number) {
      this.pos.set([x, y, z], 3 * this.count); this.radius[this.count++] = rad;
    } };
    const cellOf = (x: number, y: number, z: number) => s.find(Math.floor(x / h), Math.floor(y / h), Math.floor(z / h));
    for (const c of cells) {
      if (rand() < 0.2) { emptied.add(c); continue; }
      // Points of the midplane about the cell's centre's foot, kept where they fall in the cell.
      const ctr = [s.ci[c] + 0.5, s.cj[c] + 0.5, s.ck[c] + 0.5].map((v) => v * h), dist = offset(ctr[0], ctr[1], ctr[2]);
      for (let t = 0, got = 0; t < 40 && got < 2; t++) {
        const a = (rand() - 0.5) * 1.6 * h, b = (rand() - 0.5) * 1.6 * h;
        const q = ctr.map((v, k) => v - dist * normal[k] + a * e1[k] + b * e2[k]);
        if (cellOf(q[0], q[1], q[2]) === c) { particles.add(q[0], q[1], q[2], -0.1 * h); got++; }
      }
    }
    const before = particles.count, added = seedSheets(sim, particles);
    const interior = (c: number) => [s.ci[c], s.cj[c], s.ck[c]].every((i) => i >= 0.25 * n + 1 && i < 0.45 * n - 1);
    const filled = new Set<number>();
    let offPlane = 0, outside = 0;
    for (let q = before; q < particles.count; q++) {
      const x = particles.pos[3 * q], y = particles.pos[3 * q + 1], z = particles.pos[3 * q + 2], c = cellOf(x, y, z);
      if (filled.has(c)) throw new Error('two seeds in one cell');
      filled.add(c);
      if (!emptied.has(c)) outside++;
      if (Math.abs(offset(x, y, z)) > 1e-9) offPlane++;
    }
    const inner = [...emptied].filter(interior), innerFilled = inner.filter((c) => filled.has(c)).length;
    console.log(`sheet seeds: ${emptied.size} of ${cells.length} crossed cells emptied (${inner.length} inside the layer's edge), ${added} particles added: ${innerFilled} of those ${inner.length}, ${outside} in cells not emptied, ${offPlane} off the midplane`);
    expect(inner.length).toBeGreaterThan(3);
    expect(offPlane).toBe(0);
    expect(outside).toBe(0);
    expect(innerFilled).toBe(inner.length);
  });
});
