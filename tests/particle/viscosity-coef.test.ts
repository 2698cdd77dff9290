/**
 * The implicit viscosity's pair coefficients as 16-bit codes (src/particle/viscosity-weiler-coef.ts):
 * on the half rows of a jittered two-liquid blob (viscosities 1 and 0.01 Pa·s, so that one liquid's
 * coefficients lie two decades under the bound), every pair's coefficient as its code reads back
 * is within the code's half step of e = δt K μ h⁻⁷ F(|x_ij|/h; 1) q_i q_j evaluated in double
 * precision (√(e S) / 65535, plus the table of √F's own 1e-5), no coefficient exceeds the bound S,
 * a pair within its reach keeps a code above 0 and a pair beyond it 0: at kernelReach 0.81,
 * where the rows are compacted (the pairs beyond left out, the rest in the list's order), and with
 * the whole kernel (kernelReach 1), where they are the list's own.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { applyImplicitViscosity } from '../../src/particle/viscosity-weiler.ts';
import { halfRows } from '../../src/particle/viscosity-weiler-rows.ts';
import { pairFactor } from '../../src/particle/viscosity-weiler-product.ts';
import { COEF_TOP, codeOf, decodeCoef, encodeCoef } from '../../src/particle/viscosity-weiler-coef.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

const liquid = (pas: number, density: number, reach?: number) => ({
  kind: 'liquid' as const, density, viscosity: { value: pas, unit: 'Pa.s' as const }, ...(reach === undefined ? {} : { particle: { kernelReach: reach } }),
});

describe('the implicit viscosity\'s 16-bit pair coefficients', () => {
  it.each([[0.81, true], [1, false]])('read back within half a code step of the double-precision coefficient, over two liquids two decades apart (kernelReach %s)', (reach, compact) => {
    const input: SceneInput = {
      gravity: [0, 0, 0],
      materials: { thick: liquid(1, 1400, reach), thin: liquid(0.01, 1000, reach) },
      domain: { min: [-0.04, -0.03, -0.03], max: [0.07, 0.03, 0.03], boundary: 'open' },
      bodies: [
        { material: 'thick', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.018 } },
        { material: 'thin', shape: { type: 'sphere', center: [0.034, 0, 0], radius: 0.016 } },
      ],
      particle: { radius: 0.002, viscositySolver: 'implicit' },
    };
    const s = createSimulation(parseScene(input), 'particle', { workers: 1 }) as ParticleSimulation;
    const ctx = s.ctx, L = ctx.liquid, n = L.count;
    let seed = 7;
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let o = 0; o < 3 * n; o++) L.pos[o] += (rnd() - 0.5) * 0.0016;
    // Some particles below the rest density (volumes q above 1, up to the floor's 1/0.3).
    for (let i = 0; i < n; i++) L.density[i] = i % 5 === 0 ? 0.25 + 0.7 * rnd() : 1;
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    // One stage call makes the state (δt in pk, the volumes); the rows are then listed again here.
    const dt = 1 / 240;
    applyImplicitViscosity(ctx, dt);
    const st = ctx.viscositySolve!, pairs = ctx.cells.pairs, ps = pairs.start, pj = pairs.j, nm = ctx.mass.length;
    const coef = new Uint16Array(pairs.length), pinv = new Float32Array(6 * n), rootVol = new Float32Array(n);
    const rows = halfRows(ctx, st, n, coef, pinv, rootVol);
    expect(rows.start !== ps).toBe(compact);
    const ls = rows.start, lj = rows.j;
    const ck = st.coefDec[0], S = ck * COEF_TOP * COEF_TOP, pos = L.pos, mat = L.material;
    let within = 0, worst = 0, largest = 0, thinPairs = 0;
    // k: the rows' entry of list entry e (compacted: the pairs within reach in the list's order).
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (compact) expect(ls[i]).toBe(k);
      for (let e = ps[i]; e < ps[i + 1]; e++) {
        const j = pj[e], pe = mat[i] * nm + mat[j];
        const d2 = (pos[3 * i] - pos[3 * j]) ** 2 + (pos[3 * i + 1] - pos[3 * j + 1]) ** 2 + (pos[3 * i + 2] - pos[3 * j + 2]) ** 2;
        if (!(d2 < st.ph2[pe])) {
          if (!compact) expect(coef[e]).toBe(0);
          continue;
        }
        const at = compact ? k++ : e;
        expect(lj[at]).toBe(j);
        within++;
        const exact = st.pk[pe] * pairFactor(d2, st.ph[pe]) * st.vol[i] * st.vol[j];
        const got = decodeCoef(coef[at], st.coefDec);
        expect(coef[at]).toBeGreaterThan(0);
        largest = Math.max(largest, exact);
        if (mat[i] === 1 && mat[j] === 1) thinPairs++;
        // Half a step of the code, √(e S) / 65535 (and K = S / 65535² where a code below 1/2 reads 1), and the table's 1e-5.
        const allowed = Math.sqrt(exact * S) / COEF_TOP + ck + 1e-5 * exact;
        worst = Math.max(worst, Math.abs(got - exact) / allowed);
      }
    }
    if (compact) expect(ls[n]).toBe(k);
    expect(within).toBeGreaterThan((compact ? 4 : 10) * n);
    expect(thinPairs).toBeGreaterThan(n);
    expect(worst).toBeLessThanOrEqual(1);
    expect(largest).toBeLessThanOrEqual(S);
    s.dispose();
  });

  it('encodes to the nearest code: a value above 0 to at least 1, the bound to 65535', () => {
    const table = new Float64Array(1);
    const S = 3.7;
    table[0] = S / (COEF_TOP * COEF_TOP);
    expect(encodeCoef(0, 1 / S)).toBe(0);
    expect(encodeCoef(1e-30, 1 / S)).toBe(1);
    expect(encodeCoef(S, 1 / S)).toBe(COEF_TOP);
    expect(codeOf(2 * COEF_TOP)).toBe(COEF_TOP);
    let worst = 0;
    for (let k = 1; k <= 2000; k++) {
      const e = S * (k / 2000) ** 6, got = decodeCoef(encodeCoef(e, 1 / S), table);
      worst = Math.max(worst, Math.abs(got - e) / (Math.sqrt(e * S) / COEF_TOP + table[0]));
    }
    expect(worst).toBeLessThanOrEqual(1 + 1e-9);
  });
});
