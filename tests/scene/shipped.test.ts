/**
 * What the shipped scenes' descriptions claim, measured at the engines' current defaults, in the
 * engines they name: the measurable part of each, where no other test holds it (the table in
 * BENCHMARKS.md, "Every shipped scene looked at", names the test for each scene and engine).
 * Each case runs the scene file itself, or a smaller variant of it that shows the same property
 * (said in the title), to stay within seconds; a claim only a full run shows is behind VISCID_LONG.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { EngineName, FluidPoints, Simulation } from '../../src/api.ts';
import { filmCoverage } from '../grid/honey-film.ts';
import { measurePile, type Pile } from '../grid/pile.ts';
import { measureParticlePile } from '../particle/pile.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { meshPieces } from './mesh-pieces.ts';
import { ROPE_WINDOWS } from '../particle/rope-components.ts';

/** A scene file as parsed JSON (JSON.parse's `any`), edited before it is parsed into a scene. */
type SceneJson = any;
const shipped = (name: string): SceneJson => JSON.parse(readFileSync(new URL(`../../scenes/${name}.json`, import.meta.url), 'utf8'));
const make = (json: SceneJson, engine: EngineName): Simulation => createSimulation(parseScene(json), engine);

/** soap-pour's piles as the long cases print them: height, relief and radius at each time read. */
const pileLine = (p: Pile[]): string => p.map((q) => `${(100 * q.height).toFixed(1)} cm high, ${(1000 * q.relief).toFixed(1)} mm relief, ${(100 * q.radius).toFixed(1)} cm out`).join('; ');

/** The q-quantile of the points' coordinate `axis`, over those `keep` accepts (NaN if none). */
function quantile(p: FluidPoints, axis: number, q: number, keep: (y: number) => boolean = () => true): number {
  const v: number[] = [];
  for (let i = 0; i < p.count; i++) if (keep(p.positions[3 * i + 1])) v.push(p.positions[3 * i + axis]);
  v.sort((a, b) => a - b);
  return v.length === 0 ? NaN : v[Math.min(v.length - 1, Math.floor(q * v.length))];
}

/**
 * A dropped block's bounce: its centre of mass's height over `rest` after each of `frames` frames,
 * the frame of its lowest in the first 15 (the impact) and its highest from then on.
 */
function bounce(sim: Simulation, rest: number, frames: number): { y: number[]; impact: number; after: number } {
  const y: number[] = [];
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    y.push(sim.metrics().centerOfMass[1] / rest);
  }
  const impact = y.indexOf(Math.min(...y.slice(0, 15)));
  return { y, impact, after: Math.max(...y.slice(impact)) };
}

describe('shipped scenes, quick', () => {
  it('gpu-dam-break (particle): the front runs along the floor and reaches the far wall (118 mm) by frame 5', () => {
    const sim = make(shipped('gpu-dam-break'), 'particle');
    const front: number[] = [];
    for (let f = 1; f <= 5; f++) {
      sim.stepFrame();
      front.push(sim.metrics().bounds.max[0]);
    }
    // Measured (main 64c3511): 38, 61, 88, 117, 118 mm, as the description (the start fitted to the walls).
    expect(front[0]).toBeLessThan(0.06);
    expect(front[1]).toBeGreaterThan(front[0]);
    expect(front[4]).toBeGreaterThan(0.115);
  });

  it('dam-break (grid, a 1/64 m slab 8 cells deep of the same 2-D flow): the front reaches the far wall after about 0.3 s', () => {
    const json = shipped('dam-break');
    json.domain.max[2] = 0.125;
    json.bodies[0].shape.center[2] = 0.0625;
    json.bodies[0].shape.size[2] = 0.125;
    const sim = make(json, 'grid');
    const front: number[] = [];
    for (let f = 1; f <= 10; f++) {
      sim.stepFrame();
      front.push(sim.metrics().bounds.max[0]);
    }
    // Martin & Moyce (n² = 2): Z = 2.5 at t ≈ 0.31 s, 1 m for a = 0.4 m; the description's 97 cm at 0.27 s.
    expect(front[5]).toBeLessThan(0.95); // 0.2 s
    expect(front[9]).toBeGreaterThan(0.95); // 0.33 s
  });
  it('jelly-block (grid, 1 cm cells): it squashes, springs partly back and yields into a lower, wider block that no longer flows', () => {
    const json = shipped('jelly-block');
    json.grid.cellSize = 0.01;
    const sim = make(json, 'grid');
    const { y, impact, after } = bounce(sim, 0.03, 45); // 0.03: the 6 cm cube's centre of mass at rest on the floor
    const settled = y[44];
    const b = sim.metrics().bounds;
    console.log(`jelly-block (grid, 1 cm): centre of mass over rest height lowest ${y[impact].toFixed(2)}, highest after ${after.toFixed(2)}, at 1.5 s ${settled.toFixed(2)}; width ${(100 * (b.max[0] - b.min[0])).toFixed(1)} cm`);
    // The scene's 5 mm cells: 0.48, 0.81, 0.61 at 2 s (the description: 0.48, 0.81, 0.60 at 3 s).
    expect(y[impact]).toBeLessThan(0.7);
    expect(after).toBeGreaterThan(y[impact] + 0.1);
    expect(settled).toBeLessThan(0.85);
    expect(b.max[0] - b.min[0]).toBeGreaterThan(0.07);
    expect(Math.abs(y[44] - y[34])).toBeLessThan(0.05);
  });
  it('jello-drop (grid, the scene as shipped): it squashes on impact, springs back up past its rest height and settles close to its shape', () => {
    // The centre of mass is the markers' (metrics weighs a cell by the markers in it): on the cell
    // count alone a 5.5 cm cube on 1 cm cells read 1.09 or 0.91 of its rest height at rest, as its
    // top half-filled layer of cells counted or not (docs/decisions.md, "jello-drop's settled height").
    const atRest = shipped('jello-drop');
    atRest.bodies[0].shape.center[1] = 0.0275;
    expect(make(atRest, 'grid').metrics().centerOfMass[1] / 0.0275).toBeCloseTo(1, 1.5); // within 1.6 %
    const sim = make(shipped('jello-drop'), 'grid');
    const { y, impact, after } = bounce(sim, 0.0275, 60); // 0.0275: the 5.5 cm cube's centre of mass at rest on the floor
    const settled = y[59];
    const last = y.slice(45); // 1.5 to 2 s
    const mean = last.reduce((a, b) => a + b) / last.length, swing = Math.max(...last) - Math.min(...last);
    const b = sim.metrics().bounds;
    console.log(`jello-drop (grid): centre of mass over rest height lowest ${y[impact].toFixed(2)}, highest after ${after.toFixed(2)}, at 2 s ${settled.toFixed(2)}, 1.5–2 s ${mean.toFixed(3)} ± ${(swing / 2).toFixed(3)}; ${(100 * (b.max[0] - b.min[0])).toFixed(1)} cm wide, ${(100 * b.max[1]).toFixed(1)} cm high`);
    // Measured (branch depart): 0.71, 1.46, 0.93; 1.5–2 s 0.94 ± 0.03; 7 cm wide and 6 cm high at 2 s
    // (the cube 5.5 cm, its bounds on 1 cm cells). A block this stiff (μ_E 3 000 Pa) sags under its
    // own weight: 2ρgH / 3Y = 0.09 of its rest height for a free column, Y = 1.5 μ_E; 0.085 at rest
    // on 5 mm cells, 0.025 at four times the modulus.
    expect(y[impact]).toBeLessThan(0.8);
    expect(after).toBeGreaterThan(1.3);
    expect(mean).toBeGreaterThan(0.88);
    expect(mean).toBeLessThan(0.98);
    expect(swing).toBeLessThan(0.1); // settling: it swung 0.73 to 1.46 after the impact
    // It does not yield into a puddle: at 2 s still about as high as wide.
    expect(b.max[1] - b.min[1]).toBeGreaterThan(0.045);
    expect(b.max[0] - b.min[0]).toBeLessThan(0.08);
  });
  it('honey-drop-grid (grid, 1 cm cells): the honey coats the ball and slides off it to the floor; the markers keep its volume', () => {
    const json = shipped('honey-drop-grid');
    json.grid.cellSize = 0.01;
    const sim = make(json, 'grid');
    for (let f = 0; f < 15; f++) sim.stepFrame();
    const m = sim.metrics(), film = filmCoverage(sim.surfaceMesh(), [0, 0, 0], 0.05, 0.02);
    console.log(`honey-drop-grid (grid, 1 cm) at 0.5 s: centre of mass ${(100 * m.centerOfMass[1]).toFixed(1)} cm, lowest ${(100 * m.bounds.min[1]).toFixed(1)} cm, film on ${(100 * film.top).toFixed(0)} % of the ball's top half, volume ${(100 * m.volumeChange!).toFixed(2)} %`);
    // The scene's 5 mm cells: centre of mass −5.2 cm at 0.33 s, −7.5 cm at 1 s; the floor −10.5 cm; film on the whole top half.
    expect(m.centerOfMass[1]).toBeLessThan(-0.03);
    expect(m.bounds.min[1]).toBeLessThan(-0.09);
    expect(film.top).toBeGreaterThan(0.8);
    expect(Math.abs(m.volumeChange!)).toBeLessThan(0.01);
  });
  it('gel-fan (particle, 6 mm particles: 2 197 for the scene\'s 64 000): the gel falls onto the blades and what they hold turns with them', () => {
    const json = shipped('gel-fan');
    json.particle.radius = 0.006;
    const sim = make(json, 'particle');
    const n0 = sim.metrics().pointCount;
    const rate = json.bodies[0].motion.rate as number; // the fan's spin about +y, rad/s
    /** The gel within the blades' sweep (16 cm wide blades at 20°, 26.5 cm out, about y = 0): its count and mean spin about +y. */
    const onFan = () => {
      const p = sim.fluidPoints();
      let n = 0, l = 0, i2 = 0;
      for (let i = 0; i < p.count; i++) {
        const x = p.positions[3 * i], y = p.positions[3 * i + 1], z = p.positions[3 * i + 2];
        if (Math.abs(y) > 0.06 || Math.hypot(x, z) > 0.27) continue;
        n++;
        l += z * p.velocities[3 * i] - x * p.velocities[3 * i + 2];
        i2 += x * x + z * z;
      }
      return { share: n / n0, spin: i2 > 0 ? l / i2 : 0 };
    };
    for (let f = 0; f < 6; f++) sim.stepFrame();
    const landed = onFan();
    for (let f = 6; f < 20; f++) sim.stepFrame();
    const carried = onFan();
    console.log(`gel-fan (particle, 6 mm): ${(100 * landed.share).toFixed(0)} % of the gel on the blades at 0.2 s; at 0.67 s ${(100 * carried.share).toFixed(0)} %, turning at ${carried.spin.toFixed(2)} rad/s (the fan ${rate})`);
    // Measured (2026-11-30, 4 mm): 67 % at 0.2 s (the block, 12 cm up, lands at 0.16 s); 39 % at 0.67 s, turning at 2.75 rad/s
    // (the rest fell between the blades to the sink below; the scene at 2 mm: BENCHMARKS.md, "Every scene's sheet").
    // At 5 mm (2026-12-01): 66 %, 40 %, 2.78 rad/s, frame for frame within 2 points of 4 mm's, at half the CPU (7.7 s against 16.0).
    // At 6 mm (branch suite67, a scratch run of this case beside 5 mm, load ~10): 66 %, 43 %, 2.84 rad/s (5 mm: 66 %, 39 %,
    // 2.78), every frame's share within 4 points and spin within 0.17 rad/s of 5 mm's, for 3.9 s of CPU against 5.8.
    // With the moving objects' particles given no velocity (objects.ts) the gel is pushed but not carried:
    // 22 % and 0.74 rad/s at 0.67 s, red.
    expect(landed.share).toBeGreaterThan(0.4);
    expect(carried.share).toBeGreaterThan(0.2);
    expect(carried.spin).toBeGreaterThan(0.7 * rate);
  });
});

describeLong(import.meta, 'shipped scenes, full runs (VISCID_LONG=1)', () => {
  it('smoke-plume (grid): the plume reaches the open top by about 2 s and its upper third drifts 20–28 cm downwind at 2 and 3 s (about 25 s of CPU)', () => {
    const sim = make(shipped('smoke-plume'), 'grid');
    /** The smoke's top (99th percentile of its cells' heights) and its upper third's median x over the vent's (−15 cm). */
    const plume = () => {
      const p = sim.fluidPoints();
      const top = quantile(p, 1, 0.99);
      return { top, drift: quantile(p, 0, 0.5, (y) => y > 0.7 * top) + 0.15 };
    };
    for (let f = 0; f < 60; f++) sim.stepFrame();
    const at2 = plume();
    for (let f = 60; f < 90; f++) sim.stepFrame();
    const at3 = plume();
    console.log(`smoke-plume: top ${(100 * at2.top).toFixed(1)} cm at 2 s; upper third ${(100 * at2.drift).toFixed(1)} cm downwind of the vent at 2 s, ${(100 * at3.drift).toFixed(1)} cm at 3 s`);
    // The box is 80 cm high; the description: the top at about 2 s, the upper third 20–28 cm
    // downwind (2 and 3 s). Measured (branch depart, the wind pulling the air along x only): top
    // 75 cm at 2 s; the drift 22 cm at 2 s and 24 cm at 3 s (medians of 2 cm cells: they move in
    // 2 cm steps). With the pull on every axis it was 18 cm at 2 s (the air's rise braked).
    expect(at2.top).toBeGreaterThan(0.7);
    expect(at2.drift).toBeGreaterThan(0.19);
    expect(at3.drift).toBeGreaterThan(0.2);
    expect(at3.drift).toBeLessThan(0.28);
  });

  for (const engine of ['particle', 'grid'] as const) {
    it(`cup-pour (${engine}): the honey stays in the cup until it tips, then pours onto the floor (about a minute of CPU)`, () => {
      const sim = make(shipped('cup-pour'), engine);
      let held = 0;
      // The drawn pour's pieces between the cup's rim and the floor (tests/scene/mesh-pieces.ts), every
      // other frame while it pours: to 1.67 s (frame 50) in the particle engine, whose tail parts into
      // beads from about 1.8 s (tests/scene/pour-resolution.test.ts holds where, and info's warning), to
      // 2 s on the grid.
      const pieces: number[] = [], last = engine === 'particle' ? 50 : 60;
      for (let f = 1; f <= 60; f++) {
        sim.stepFrame();
        if (f === 30) held = sim.metrics().bounds.min[1];
        if (f >= 34 && f <= last && f % 2 === 0) pieces.push(meshPieces(sim.surfaceMesh(), ROPE_WINDOWS['cup-pour'], 8e-9));
      }
      const m = sim.metrics();
      console.log(`cup-pour (${engine}): lowest honey ${(100 * held).toFixed(1)} cm at 1 s, ${(100 * m.bounds.min[1]).toFixed(1)} cm at 2 s; drawn pieces from rim to floor, frames 34, 36, … ${last}: ${pieces.join(' ')}`);
      // The cup's bottom is 5 cm up, tipping from 0.2 s to 1.4 s; the floor is at 0.
      expect(held).toBeGreaterThan(0.04);
      expect(m.bounds.min[1]).toBeLessThan(0.01);
      // One rope (branch scenes18, the CLI run's meshes every frame): particle one piece in frames 33–53,
      // 2–5 from 54 on; grid one piece from 37 (the first honey over the rim) to 120 but for frame 56 (2).
      expect(pieces.filter((n) => n === 1).length).toBeGreaterThanOrEqual(pieces.filter((n) => n > 0).length - 1);
      expect(pieces.filter((n) => n === 1).length).toBeGreaterThanOrEqual(8); // of 9 frames read (particle), 14 (grid: 12 with honey there)
      expect(Math.max(...pieces)).toBeLessThanOrEqual(2);
    });
  }

  /** The share of the points within 1 cm of the rod's surface (axis z through (0, 11 cm), radius 1.8 cm), and the number on the floor. */
  const onRod = (p: FluidPoints) => {
    let near = 0, floor = 0;
    for (let i = 0; i < p.count; i++) {
      const x = p.positions[3 * i], y = p.positions[3 * i + 1];
      if (Math.hypot(x, y - 0.11) - 0.018 < 0.01) near++;
      if (y < 0.02) floor++;
    }
    return { near: near / p.count, floor };
  };

  it('honey-on-spinner (particle): the honey coats the rod and drips off it onto the floor (about 10 s of CPU)', () => {
    const sim = make(shipped('honey-on-spinner'), 'particle');
    for (let f = 0; f < 60; f++) sim.stepFrame();
    const r = onRod(sim.fluidPoints());
    for (let f = 60; f < 120; f++) sim.stepFrame();
    const late = onRod(sim.fluidPoints());
    console.log(`honey-on-spinner (particle): ${(100 * r.near).toFixed(0)} % within 1 cm of the rod at 2 s, ${(100 * late.near).toFixed(0)} % at 4 s; ${r.floor} particles on the floor at 2 s`);
    // The description: 62 % at 2 s, 47 % at 4 s, drips apart on the floor (58 and 45 % with every liquid
    // pair's cohesion in full, particle.cohesionShare "every-pair": stop 49's merge; 69 % and 50 % before the
    // second pressure solve added to the first next to a body: docs/decisions.md, "Stop 44's merge").
    // At the rod's former friction 0.5 (half the no-slip in the implicit viscosity) it was 48 % at 2 s
    // and 25 % at 4 s: the coat that slips off is what these bounds catch.
    expect(r.near).toBeGreaterThan(0.52);
    expect(late.near).toBeGreaterThan(0.38);
    expect(r.floor).toBeGreaterThan(0);
  });

  it('honey-on-spinner (grid): the rod carries the honey while the stream feeds it, then the coat drains off to a residue under 1 % (about 80 s of CPU)', () => {
    const sim = make(shipped('honey-on-spinner'), 'grid');
    let fed = 0, drained = 0;
    const stream: number[] = []; // the drawn stream's pieces from spout to rod, every third frame of the pour
    for (let f = 1; f <= 120; f++) {
      sim.stepFrame();
      if (f === 60) fed = onRod(sim.fluidPoints()).near;
      if (f === 90) drained = onRod(sim.fluidPoints()).near;
      if (f <= 60 && f % 3 === 0) stream.push(meshPieces(sim.surfaceMesh(), ROPE_WINDOWS['honey-on-spinner'], 0.004 ** 3));
    }
    const p = sim.fluidPoints(), late = onRod(p).near;
    let inRod = 0;
    for (let i = 0; i < p.count; i++) if (Math.hypot(p.positions[3 * i], p.positions[3 * i + 1] - 0.11) < 0.018) inRod++;
    console.log(`honey-on-spinner (grid): ${(100 * fed).toFixed(1)} % within 1 cm of the rod at 2 s, ${(100 * drained).toFixed(1)} % at 3 s, ${(100 * late).toFixed(2)} % at 4 s; ${inRod} points inside the rod; the stream in pieces, frames 3, 6, … 60: ${stream.join(' ')}`);
    // The description: 23 % at 2 s, 5 % at 3 s, under 1 % at 4 s: 22.7, 5.4 and 0.38 % with the seeds beside the
    // rod keeping their |φ| (redistance-seed.ts KEEP_TOP; branch knob62, 2026-12-02: the estimate took the coat's
    // surface outwards at the rod's cell steps); 22.7, 8.3 and 1.17 % with the variational viscosity's control volumes cut by the rod's surface and the wall held where the liquid wets it (branch
    // weights60, 2026-12-02); 24.8, 8.7 and 1.87 % with its no-slip at the rod's exact surface (crown26); before crown26, measured with keep-top, the default
    // redistancing seeds (2026-12-02): 24.3, 6.6 and 0.29 %. With the seeds estimated (stop 48's main,
    // branch audit29): 27.6, 9.5 and 1.11 %; with the scene's seed 7 25.9, 7.0 and 0.26 % (the residue
    // at 4 s is the last drips, 0.3–1.1 % by seed; docs/decisions.md, "Every shipped scene on stop 48's
    // main"). A coat the rod kept would read tens of per cent at 3 and 4 s.
    expect(fed).toBeGreaterThan(0.2);
    expect(drained).toBeLessThan(0.6 * fed);
    expect(late).toBeLessThan(0.025);
    expect(late).toBeLessThan(0.1 * fed);
    expect(inRod).toBe(0); // no display point inside the rod (φ is carried into its cells)
    // One rope from spout to rod while it pours (branch scenes18, the CLI run's meshes: one piece in
    // all 62 frames with liquid there; 26.0 % and 9.1 % within 1 cm of the rod at 2 and 3 s).
    expect(stream.every((n) => n === 1)).toBe(true);
  });

  it('jello-drop (particle, the scene as shipped): it squashes to about 0.61 of its rest height, springs back to about 1.23 and settles at about 0.91 (about 20 s of CPU)', () => {
    const sim = make(shipped('jello-drop'), 'particle');
    const { y, impact, after } = bounce(sim, 0.0275, 60); // 0.0275: the 5.5 cm cube's centre of mass at rest on the floor
    const last = y.slice(45); // 1.5 to 2 s
    const mean = last.reduce((a, b) => a + b) / last.length, swing = Math.max(...last) - Math.min(...last);
    const c = sim.metrics().centerOfMass;
    console.log(`jello-drop (particle): centre of mass over rest height lowest ${y[impact].toFixed(3)} (frame ${impact + 1}), highest after ${after.toFixed(3)}, 1.5–2 s ${mean.toFixed(3)} ± ${(swing / 2).toFixed(3)}; x/z ${(1000 * c[0]).toFixed(1)}/${(1000 * c[2]).toFixed(1)} mm`);
    // The description: 0.61, 1.23, 0.91. Measured (branch audit29, stop 48's main da3a26b): 0.612 at
    // frame 4, 1.214 at frame 6, 0.911 ± 0.001. The rebound read 1.30 while PBF fed the pressure
    // stage's warm start through it (pcost5 to jello7: docs/decisions.md, "Liquid in motion takes no
    // PBF feed"), 1.21 before: the upper bound catches that feed.
    expect(y[impact]).toBeGreaterThan(0.55);
    expect(y[impact]).toBeLessThan(0.67);
    expect(after).toBeGreaterThan(1.15);
    expect(after).toBeLessThan(1.27);
    expect(mean).toBeGreaterThan(0.88);
    expect(mean).toBeLessThan(0.94);
    expect(swing).toBeLessThan(0.02); // settled
    expect(Math.hypot(c[0], c[2])).toBeLessThan(0.002); // it lands and stays where it fell
  });

  it('jelly-block (particle, the scene as shipped): it squashes to about 0.44 of its rest height, springs partly back and sits yielded at about 0.60, no longer flowing (about 25 s of CPU)', () => {
    const sim = make(shipped('jelly-block'), 'particle');
    const { y, impact, after } = bounce(sim, 0.03, 90); // 0.03: the 6 cm cube's centre of mass at rest on the floor
    const c = sim.metrics().centerOfMass;
    console.log(`jelly-block (particle): centre of mass over rest height lowest ${y[impact].toFixed(3)} (frame ${impact + 1}), highest after ${after.toFixed(3)}, at 1 s ${y[29].toFixed(3)}, at 3 s ${y[89].toFixed(3)}; x/z ${(1000 * c[0]).toFixed(1)}/${(1000 * c[2]).toFixed(1)} mm`);
    // The description: 0.44, 0.70, 0.60. Measured (branch audit29, stop 48's main da3a26b): 0.435 at
    // frame 5, 0.695 at frame 8, 0.601 at 1 s and 0.600 at 3 s, centred (with every liquid pair's cohesion
    // in full, particle.cohesionShare "every-pair": 0.410, 0.638, 0.570: docs/decisions.md, stop 49's merge).
    expect(y[impact]).toBeLessThan(0.48);
    expect(after).toBeGreaterThan(y[impact] + 0.15); // springs partly back
    expect(after).toBeLessThan(0.75); // and keeps part of the squash: it yielded
    expect(y[89]).toBeGreaterThan(0.55);
    expect(y[89]).toBeLessThan(0.64);
    expect(Math.abs(y[89] - y[29])).toBeLessThan(0.02); // no longer flows from 1 s
    expect(Math.hypot(c[0], c[2])).toBeLessThan(0.003); // and does not creep (docs/decisions.md, "jelly-block's creep")
  });

  it('honey-drop (particle): the honey drapes the ball and strings off it to the floor, none lost (about 2 min of CPU)', () => {
    const sim = make(shipped('honey-drop'), 'particle');
    const n = sim.metrics().pointCount;
    for (let f = 0; f < 36; f++) sim.stepFrame();
    const m = sim.metrics();
    console.log(`honey-drop (particle) at 1.2 s: lowest honey ${(100 * m.bounds.min[1]).toFixed(1)} cm, centre of mass ${(100 * m.centerOfMass[1]).toFixed(1)} cm, ${m.pointCount} of ${n} particles`);
    // The floor is at −12 cm, the ball's bottom at −5 cm. Measured (CLI run): −11.8 cm from 1 s, centre −3.3 cm at 1 s, −4.0 at 1.33 s.
    expect(m.bounds.min[1]).toBeLessThan(-0.11);
    expect(m.centerOfMass[1]).toBeGreaterThan(-0.06);
    expect(m.pointCount).toBe(n);
  });

  it('soap-pour (grid): the soap piles up in folds that stand, then yield; the same liquid without elasticity lands in a low round pool (about three minutes of CPU)', () => {
    /** The stream's drawn pieces from under the spout (18.5 cm) to over the pile (9 cm), every third frame of the pour. */
    const stream: number[] = [];
    const above = { min: [-0.04, 0.09, -0.04] as [number, number, number], max: [0.04, 0.185, 0.04] as [number, number, number] };
    /** The pile (tests/grid/pile.ts) at 1.5, 2 and 3 s. */
    const piles = (elastic: boolean): Pile[] => {
      const json = shipped('soap-pour');
      if (!elastic) json.materials.soap.viscoelastic.elasticModulus = 0;
      const sim = make(json, 'grid') as GridEngineSimulation;
      const out: Pile[] = [];
      for (let f = 1; f <= 90; f++) {
        sim.stepFrame();
        if (f === 45 || f === 60 || f === 90) out.push(measurePile(sim.sim));
        if (elastic && f <= 60 && f % 3 === 0) stream.push(meshPieces(sim.surfaceMesh(), above, json.grid.cellSize ** 3));
      }
      return out;
    };
    const soap = piles(true), plain = piles(false);
    console.log(`soap-pour (grid) at 1.5, 2, 3 s: soap ${pileLine(soap)}; plain ${pileLine(plain)}; the soap's stream in pieces, frames 3, 6, … 60: ${stream.join(' ')}`);
    // One rope from spout to pile while it pours (branch scenes18, the CLI run's meshes: one piece in
    // all 60 frames of the pour).
    expect(stream.every((n) => n === 1)).toBe(true);
    // Measured (bench/soap-folds.ts, 2026-11-30): soap 6.4 cm high, 12.3 mm relief, 4.3 cm out at
    // 1.5 s; 6.1, 8.7, 5.3 at 2 s; 5.4, 6.9, 6.1 at 3 s. Plain 1.8 cm, 1.2 mm, 8.3 cm at 1.5 s; 1.2 cm
    // high and 10.8 cm out (against the walls) at 3 s. The relief is the folds' (a round pile, terraced
    // or not, reads about a millimetre), so the folds stand while the plain liquid's pool is round.
    expect(soap[0].height).toBeGreaterThan(2 * plain[0].height);
    expect(soap[0].relief).toBeGreaterThan(0.006);
    expect(plain[0].relief).toBeLessThan(0.003);
    expect(soap[0].radius).toBeLessThan(0.7 * plain[0].radius);
    // Then they yield: once the pour stops (2 s) the pile spreads and its folds slump.
    expect(soap[2].radius).toBeGreaterThan(soap[1].radius + 0.004);
    expect(soap[2].relief).toBeLessThan(soap[0].relief);
    expect(soap[2].height).toBeGreaterThan(plain[2].height + 0.02);
  });

  it('soap-pour (particle): one rope in every frame while it pours; the soap piles up in folds that stand, then spread; the plain liquid lands in a low round pool (about 19 s of CPU on an idle 2-vCPU EPYC)', () => {
    /**
     * The stream's drawn pieces in the pour's window (ROPE_WINDOWS: from under the spout, 18.5 cm, down to
     * 5 cm, just above the pile, where a thread that parts does so) in every frame of the pour (1–60): a
     * part lasts about a frame before the upper piece lands (docs/decisions.md soap64), so every third
     * frame and a window ending at 9 cm read a rope that parts as whole. Meshing every frame costs about
     * 1 s of CPU more than every third.
     */
    const stream: number[] = [];
    const window = ROPE_WINDOWS['soap-pour'];
    /** The pile (tests/particle/pile.ts: the particles on the grid's 2 mm columns) at 1.5, 2 and 3 s. */
    const piles = (elastic: boolean): Pile[] => {
      const json = shipped('soap-pour');
      if (!elastic) json.materials.soap.viscoelastic.elasticModulus = 0;
      const sim = make(json, 'particle'), r = json.particle.radius, d = json.domain;
      const out: Pile[] = [];
      for (let f = 1; f <= 90; f++) {
        sim.stepFrame();
        if (f === 45 || f === 60 || f === 90) out.push(measureParticlePile(sim.fluidPoints(), r, d.min, d.max));
        if (elastic && f <= 60) stream.push(meshPieces(sim.surfaceMesh(), window, (2 * r) ** 3));
      }
      return out;
    };
    const soap = piles(true), plain = piles(false);
    const parted = stream.map((n, i) => (i > 0 && n !== 1 ? i + 1 : 0)).filter((f) => f > 0);
    console.log(`soap-pour (particle) at 1.5, 2, 3 s: soap ${pileLine(soap)}; plain ${pileLine(plain)}; the soap's stream in pieces, frames 1–60: ${stream.join(' ')}`);
    // Measured (this test, branch spring64, 3 mm particles): soap 6.1 cm high, 9.8 mm relief, 4.8 cm out at
    // 1.5 s; 6.7, 10.2, 5.6 at 2 s; 5.7, 10.0, 6.7 at 3 s. Plain 1.8 cm, 1.6 mm, 8.3 cm at 1.5 s; 1.3 cm high
    // against the walls (10.9) at 3 s. The stream (bench/rope-neck.ts): one piece in all 59 frames with
    // liquid in the window, at 2.8 and 3.2 mm too; it parted at frame 52 while the springs broke at the
    // reach, a neck made where the particles left the spout's nozzle (docs/decisions.md soap64, spring64).
    expect(soap[0].height).toBeGreaterThan(2 * plain[0].height);
    expect(soap[0].relief).toBeGreaterThan(0.005);
    expect(plain[0].relief).toBeLessThan(0.003);
    expect(soap[0].radius).toBeLessThan(plain[0].radius - 0.008);
    // Once the pour stops (2 s) the pile sinks and spreads, still far above the plain pool.
    expect(soap[2].radius).toBeGreaterThan(soap[1].radius + 0.004);
    expect(soap[2].height).toBeLessThan(soap[1].height);
    expect(soap[2].height).toBeGreaterThan(plain[2].height + 0.015);
    // One piece in every frame of the pour from frame 2 (frame 1 has no liquid in the window yet).
    expect(parted).toEqual([]);
  });
});
