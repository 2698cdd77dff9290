/**
 * The grid's drawn liquid against a solid's wall (issue 26 "Films without grid artefacts"): honey
 * in a cylinder cup (cup-pour's cup and honey, 5 mm cells) fills the 3 mm gap to the wall in a few
 * frames, and φ's zero then runs through the wall's cells (their φ is the mean of their liquid and
 * air neighbours, grid/redistance.ts fillSolidPhi). The mesher cuts the drawn φ by the cup's exact
 * distance at every lattice point (surface/solid-clip.ts), so the honey's side lies on the wall,
 * standing or tipping; without the cut it lay in the wall's cells. Measured: bench/grid-solid-clip.ts.
 */
import { describe, expect, it } from 'vitest';
import { meshSurfaceJob, type SurfaceJob } from '../../src/surface/job.ts';
import { checkMesh } from '../../src/surface/check-mesh.ts';
import { gridSim } from './helpers.ts';
import { cylinderSide } from './wall-side.ts';

const h = 0.005, inner = 0.034;
const cup = { type: 'cylinder', center: [0, 0.1, 0], radius: 0.04, height: 0.1, wall: 0.006 };

function cupScene(motion?: Record<string, unknown>) {
  return gridSim({
    fps: 30,
    domain: { min: [-0.08, 0, -0.06], max: [0.1, 0.18, 0.06], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: {
      honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } },
      cup: { kind: 'solid' },
    },
    bodies: [
      { name: 'cup', material: 'cup', shape: cup, ...(motion ? { motion } : {}) },
      { material: 'honey', shape: { type: 'cylinder', center: [0, 0.09, 0], radius: 0.031, height: 0.06 } },
    ],
    grid: { cellSize: h },
  });
}

function sides(job: SurfaceJob) {
  if (job.kind !== 'levelset' || !job.input.solids) throw new Error('a level-set job with the solids');
  const posed = job.input.solids[0];
  const frame = { center: cup.center, axis: [0, 1, 0], R: posed.R, t: posed.t };
  const plain: SurfaceJob = { ...job, input: { ...job.input, solids: undefined } };
  // The side 1–4 cm above the cup's bottom (the cavity runs 0.056–0.15 m), near the wall.
  const window = (mesh: ReturnType<typeof meshSurfaceJob>) => cylinderSide(mesh, frame, [-0.04, -0.01], [0.025, 0.045]);
  const clipped = meshSurfaceJob(job), unclipped = meshSurfaceJob(plain);
  return { clipped, unclipped, cut: window(clipped), uncut: window(unclipped) };
}

type Side = ReturnType<typeof sides>['cut'];

/**
 * The cut side on the wall: within a tenth of a cell of it on average, spread under `sdCells` of a cell,
 * nowhere past it, normals within 12° RMS of radial; the uncut side over half a cell out, in the wall's
 * cells (what the test tells apart).
 */
function expectOnWall(label: string, time: number, cut: Side, uncut: Side, sdCells: number): void {
  const mm = (s: Side) => `${(1000 * s.mean).toFixed(2)} ± ${(1000 * s.sd).toFixed(2)} mm`;
  console.log(`${label}, t = ${time.toFixed(3)} s: side at ${mm(cut)}, ${cut.rmsDeg.toFixed(1)}° off radial (${cut.count} vertices); uncut ${mm(uncut)}, ${uncut.rmsDeg.toFixed(1)}°`);
  expect(cut.count).toBeGreaterThan(200);
  expect(Math.abs(cut.mean - inner)).toBeLessThan(0.1 * h);
  expect(cut.sd).toBeLessThan(sdCells * h);
  expect(cut.max).toBeLessThanOrEqual(inner + 1e-6);
  expect(cut.rmsDeg).toBeLessThan(12);
  expect(uncut.mean - inner).toBeGreaterThan(0.5 * h);
}

describe('the drawn liquid against a solid wall (surface/solid-clip.ts)', () => {
  it('honey standing in a cup: its side on the wall within a tenth of a cell, normals radial; a worker meshes the same', () => {
    const sim = cupScene();
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
    const { clipped, unclipped, cut, uncut } = sides(job);
    expectOnWall('standing cup', sim.time, cut, uncut, 0.1);
    // The mesh holds the honey's volume (the cut takes the wall's cells away; uncut 29 % more), closed,
    // in as many pieces as uncut (a splash off the top at 0.17 s: none cut off the wall).
    const rep = checkMesh(clipped);
    expect(rep).toMatchObject({ closed: true, shells: checkMesh(unclipped).shells });
    expect(Math.abs(rep.volume / (Math.PI * 0.031 ** 2 * 0.06) - 1)).toBeLessThan(0.05);
    // A mesh worker gets the job by structured clone: the shapes and poses travel, the mesh is the same.
    const cloned = meshSurfaceJob(structuredClone(job));
    expect(cloned.positions).toEqual(clipped.positions);
    expect(cloned.normals).toEqual(clipped.normals);
  });

  it('honey in a cup tipping by 20°: the side on the wall at the frame\'s pose', () => {
    const sim = cupScene({ type: 'keyframes', pivot: [0.04, 0.05, 0], keys: [{ time: 0 }, { time: 0.2, rotation: [0, 0, -20] }] });
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
    if (job.kind !== 'levelset') throw new Error('a level-set job');
    const R = job.input.solids![0].R;
    expect((Math.acos(R[4]) * 180) / Math.PI).toBeCloseTo((0.1 / 0.2) * 20, 0);
    const { cut, uncut } = sides(job);
    expectOnWall('tipping cup', sim.time, cut, uncut, 0.15);
  });
});
