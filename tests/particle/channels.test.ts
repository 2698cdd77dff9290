/**
 * Per-particle channels (src/particle/channels.ts): a stage's rows follow their particles through
 * the liquid's sort, compaction and growth, a new particle starts from its material's row, a sort
 * allocates nothing (the channel's array keeps its identity), and a checkpoint carries the rows.
 */
import { describe, expect, it } from 'vitest';
import { LiquidParticles } from '../../src/particle/liquid.ts';
import { restoreSimulation } from '../../src/index.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { particleSim } from './helpers.ts';

/** A liquid of n particles, particle i of material i % 2 at x = i, with a two-wide f64 channel and a one-wide u8 channel. */
function liquid(n: number) {
  const L = new LiquidParticles();
  const pair = L.addChannel({ name: 'pair', kind: 'f64', width: 2, initial: [1, 2, 3, 4] });
  const flag = L.addChannel({ name: 'flag', kind: 'u8', width: 1, initial: [7, 9] });
  for (let i = 0; i < n; i++) L.add(i, 0, 0, 0, 0, 0, i % 2);
  // Each particle's own values, so that a row that moves is recognized: pair = (10 x, 10 x + 1), flag = x.
  for (let i = 0; i < n; i++) {
    pair.array[2 * i] = 10 * i;
    pair.array[2 * i + 1] = 10 * i + 1;
    flag.array[i] = i;
  }
  return { L, pair, flag };
}

describe('particle channels', () => {
  it('fills a new particle from its material\'s row, and refuses a duplicate name', () => {
    const L = new LiquidParticles();
    const ch = L.addChannel({ name: 't', kind: 'f32', width: 3, initial: [1, 0, 0, 0, 1, 0] });
    L.add(0, 0, 0, 0, 0, 0, 1);
    L.add(0, 0, 0, 0, 0, 0, 0);
    expect(Array.from(ch.array.subarray(0, 6))).toEqual([0, 1, 0, 1, 0, 0]);
    expect(() => L.addChannel({ name: 't', kind: 'f64', width: 1, initial: [0, 0] })).toThrow(/already registered/);
    expect(L.channel('t')).toBe(ch);
    expect(L.channel('none')).toBeNull();
  });

  it('rows follow their particles through a sort and a compaction, and a sort allocates no new array', () => {
    const n = 200, { L, pair, flag } = liquid(n);
    const before = pair.array;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = (i * 37) % n; // a permutation: 37 and 200 are coprime
    L.sortByCell(order);
    expect(pair.array).toBe(before);
    for (let i = 0; i < n; i++) {
      const x = L.pos[3 * i];
      expect(pair.array[2 * i]).toBe(10 * x);
      expect(pair.array[2 * i + 1]).toBe(10 * x + 1);
      expect(flag.array[i]).toBe(x);
    }
    const keep = new Uint8Array(n);
    for (let i = 0; i < n; i++) keep[i] = L.pos[3 * i] % 3 === 0 ? 0 : 1;
    const removed = L.compact(keep);
    expect(removed).toBe(67);
    for (let i = 0; i < L.count; i++) {
      const x = L.pos[3 * i];
      expect(x % 3).not.toBe(0);
      expect(pair.array[2 * i]).toBe(10 * x);
      expect(flag.array[i]).toBe(x);
    }
  });

  it('keeps the rows when the liquid grows and when it moves to shared memory', () => {
    const { L, pair, flag } = liquid(10);
    L.reserve(5000);
    L.share();
    for (let i = 0; i < 10; i++) {
      expect(pair.array[2 * i]).toBe(10 * i);
      expect(flag.array[i]).toBe(i);
    }
    if (typeof SharedArrayBuffer !== 'undefined') expect(pair.array.buffer).toBeInstanceOf(SharedArrayBuffer);
    L.add(0, 0, 0, 0, 0, 0, 1);
    expect(Array.from(pair.array.subarray(20, 22))).toEqual([3, 4]);
    expect(flag.array[10]).toBe(9);
  });

  it('a checkpoint carries every channel, and a restored run continues bit for bit', () => {
    const law = (initial: number) => ({ viscosityModel: 'variable' as const, temperature: { initial, reference: 20, coefficient: 0.05, diffusivity: 2e-4 } });
    const sim = particleSim({
      materials: {
        a: { kind: 'liquid', density: 1000, viscosity: { value: 1, unit: 'Pa.s' }, color: '#ff0000', grid: law(60) },
        b: { kind: 'liquid', density: 1000, viscosity: { value: 1, unit: 'Pa.s' }, color: '#0000ff', grid: law(20) },
      },
      bodies: [
        { material: 'a', shape: { type: 'box', center: [-0.004, 0, 0], size: [0.008, 0.008, 0.008] } },
        { material: 'b', shape: { type: 'box', center: [0.004, 0, 0], size: [0.008, 0.008, 0.008] } },
      ],
      sinks: [{ shape: { type: 'box', center: [0.009, 0, 0], size: [0.004, 0.1, 0.1] } }],
      particle: { radius: 0.001, mixingDiffusivity: 1e-6 },
    });
    expect(sim.ctx.liquid.channels.map((c) => c.name).sort()).toEqual(['mix', 'temperature']);
    sim.stepFrame();
    sim.stepFrame();
    const copy = restoreSimulation(sim.save()) as ParticleSimulation;
    sim.stepFrame();
    copy.stepFrame();
    const n = sim.ctx.liquid.count;
    for (const ch of sim.ctx.liquid.channels) {
      const other = copy.ctx.liquid.channel(ch.name)!;
      expect(Array.from(other.array.subarray(0, n * ch.width))).toEqual(Array.from(ch.array.subarray(0, n * ch.width)));
    }
    // The temperatures have conducted across the meeting plane (so the comparison is of moved values).
    const T = sim.ctx.temperature!.T;
    let between = 0;
    for (let i = 0; i < n; i++) if (T[i] > 20.01 && T[i] < 59.99) between++;
    expect(between).toBeGreaterThan(0);
  });
});
