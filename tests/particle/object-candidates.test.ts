/**
 * The object rows from a cell's candidates (object-candidates.ts) against the plain scan they
 * replace: for each particle, every slot of every object cell whose particle box lies within h of
 * it, tested against the particle (the former object-cells.ts gatherObjectSlots, written out here).
 * Object slots jittered about a sphere's surface in cells of the adhesion's reach, liquid cells of
 * jittered particles about it, particles placed on their cell box's faces and slots at exactly h
 * (the ties), and particles of two supports (the viscosity's per-material h under the box's
 * largest): the lists the same entry for entry, with candidates the box's test drops.
 */
import { describe, expect, it } from 'vitest';
import { cellCandidates, gatherCandidates, SlotCandidates } from '../../src/particle/object-candidates.ts';

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The plain scan: each object cell's box tested against the particle, then each of its slots. */
function scan(
  pos: Float64Array, i: number, h2: number, oc: Int32Array, m: number, obox: Float64Array,
  ostart: Int32Array, ocount: Int32Array, opos: Float64Array, out: number[],
): void {
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  for (let q = 0; q < m; q++) {
    const cc = oc[q], b = 6 * cc;
    let ex = obox[b] - xi, ey = obox[b + 1] - yi, ez = obox[b + 2] - zi;
    if (ex < 0) { ex = xi - obox[b + 3]; if (ex < 0) ex = 0; }
    if (ey < 0) { ey = yi - obox[b + 4]; if (ey < 0) ey = 0; }
    if (ez < 0) { ez = zi - obox[b + 5]; if (ez < 0) ez = 0; }
    if (ex * ex + ey * ey + ez * ez >= h2) continue;
    for (let s = ostart[cc]; s < ostart[cc] + ocount[cc]; s++) {
      const dx = opos[3 * s] - xi, dy = opos[3 * s + 1] - yi, dz = opos[3 * s + 2] - zi;
      if (dx * dx + dy * dy + dz * dz < h2) out.push(s);
    }
  }
}

interface Objects { opos: Float64Array; ostart: Int32Array; ocount: Int32Array; obox: Float64Array; cells: number }

/** Slots jittered about a sphere of radius R, sorted into cells of size `cell`, with each cell's particle box. */
function objects(rnd: () => number, R: number, spacing: number, cell: number): Objects {
  const pts: number[][] = [];
  const n = Math.round((4 * Math.PI * R * R) / (spacing * spacing));
  for (let k = 0; k < n; k++) {
    // A Fibonacci sphere, jittered off the surface by up to a tenth of the spacing.
    const y = 1 - (2 * (k + 0.5)) / n, rr = Math.sqrt(1 - y * y), phi = k * Math.PI * (3 - Math.sqrt(5));
    const s = R + (rnd() - 0.5) * 0.2 * spacing;
    pts.push([s * rr * Math.cos(phi), s * y, s * rr * Math.sin(phi)]);
  }
  const key = (p: number[]) => p.map((c) => Math.floor(c / cell)).join(',');
  const byCell = new Map<string, number[][]>();
  for (const p of pts) byCell.set(key(p), [...(byCell.get(key(p)) ?? []), p]);
  const cells = [...byCell.values()];
  const opos = new Float64Array(3 * pts.length), ostart = new Int32Array(cells.length), ocount = new Int32Array(cells.length);
  const obox = new Float64Array(6 * cells.length);
  let s = 0;
  cells.forEach((c, k) => {
    ostart[k] = s;
    ocount[k] = c.length;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const p of c) {
      for (let d = 0; d < 3; d++) {
        opos[3 * s + d] = p[d];
        lo[d] = Math.min(lo[d], p[d]);
        hi[d] = Math.max(hi[d], p[d]);
      }
      s++;
    }
    obox.set([...lo, ...hi], 6 * k);
  });
  return { opos, ostart, ocount, obox, cells: cells.length };
}

describe('object rows from a cell\'s candidates', () => {
  it('lists what the plain scan lists, entry for entry, with fewer candidates', () => {
    const rnd = random(20261130);
    const r = 0.0015, h = 5 * r, hSmall = 4 * r, cellObj = 8 * r, cellLiq = h;
    const O = objects(rnd, 0.05, 2 * r, cellObj);
    const oc = Int32Array.from({ length: O.cells }, (_, k) => k);
    // Two materials: h and a smaller support, diagonal entries of a 2 × 2 table (stride 3).
    const h2s = new Float64Array([h * h, 0, 0, hSmall * hSmall]);
    const c = new SlotCandidates();
    c.h2[0] = h * h;
    let entries = 0, candidates = 0, scanned = 0, ties = 0;
    for (let cellNo = 0; cellNo < 60; cellNo++) {
      // A liquid cell about the sphere's surface, 8 particles jittered within it, two of them on its box's faces.
      const dir = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], norm = Math.hypot(...dir), at = 0.05 + (rnd() - 0.2) * h;
      const base = dir.map((d) => Math.floor(((d / norm) * at) / cellLiq) * cellLiq);
      const np = 8, pos = new Float64Array(3 * np);
      for (let i = 0; i < np; i++) for (let d = 0; d < 3; d++) pos[3 * i + d] = base[d] + rnd() * cellLiq;
      // A slot at exactly h from particle 0 along x (a tie the strict test drops), where the rounding allows.
      const s0 = (cellNo * 7) % (O.opos.length / 3);
      pos[0] = O.opos[3 * s0] - h; pos[1] = O.opos[3 * s0 + 1]; pos[2] = O.opos[3 * s0 + 2];
      const box = new Float64Array(6);
      box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      for (let i = 0; i < np; i++) {
        for (let d = 0; d < 3; d++) {
          box[d] = Math.min(box[d], pos[3 * i + d]);
          box[3 + d] = Math.max(box[3 + d], pos[3 * i + d]);
        }
      }
      const k = cellCandidates(c, box, 0, oc, oc.length, O.ostart, O.ocount, O.opos);
      candidates += k;
      scanned += O.opos.length / 3;
      const lj = new Int32Array(np * Math.max(1, k));
      let len = 0;
      for (let i = 0; i < np; i++) {
        const mat = i % 2, want: number[] = [];
        scan(pos, i, h2s[3 * mat], oc, oc.length, O.obox, O.ostart, O.ocount, O.opos, want);
        const from = len;
        len = gatherCandidates(pos, i, h2s, 3 * mat, c, k, lj, len);
        expect(Array.from(lj.subarray(from, len))).toEqual(want);
        entries += want.length;
        const dx = O.opos[3 * s0] - pos[0];
        if (i === 0 && dx * dx === h * h) ties++;
      }
    }
    // The case is not empty: many entries, the box's test dropping most of the sphere's slots, some ties.
    expect(entries).toBeGreaterThan(500);
    expect(candidates).toBeLessThan(0.2 * scanned);
    expect(ties).toBeGreaterThan(0);
  });
});
