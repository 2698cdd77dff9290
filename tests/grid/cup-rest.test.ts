/**
 * A still liquid in a container object rests on the grid, with the pressure's faces voxelized (the
 * default) and with them cut by the object's exact surface (pressure-solid-faces.ts, issue 26 "Films
 * without grid artefacts", branch cutp61): water and honey standing 3.7 cm deep (their top mid-cell) in cup-pour's cup (a
 * cylinder 34 mm in inner radius, its wall 6 mm) at 5 mm cells (honey) and 2.5 mm (water, deep enough for the multigrid preconditioner), the liquid filling the cup to its wall.
 * The cut faces weigh the gravity step's fluxes and the pressure's couplings alike (a hydrostatic
 * pressure balances every face whatever its weight), so the liquid stays at rest; a flux the object's
 * shut part takes wrongly, or a weight that the update and the divergence read differently, would
 * stir it.
 */
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { FLUID } from '../../src/grid/store.ts';

/** The largest face speed of a liquid cell after `frames` frames, m/s. */
function restSpeed(material: { density: number; viscosity: number; cell: number }, cut: boolean, frames: number): number {
  const eng = new GridEngineSimulation(parseScene({
    name: 'a pool in a cup', fps: 30, duration: 1,
    domain: { min: [-0.045, 0.04, -0.045], max: [0.045, 0.16, 0.045], boundary: 'noslip' },
    materials: { liquid: { kind: 'liquid', density: material.density, viscosity: { value: material.viscosity, unit: 'Pa.s' } }, cup: { kind: 'solid' } },
    bodies: [
      { name: 'cup', material: 'cup', shape: { type: 'cylinder', center: [0, 0.1, 0], radius: 0.04, height: 0.1, wall: 0.006 } },
      { name: 'pool', material: 'liquid', shape: { type: 'cylinder', center: [0, 0.0745, 0], radius: 0.034, height: 0.037 } },
    ],
    grid: { cellSize: material.cell },
  }));
  eng.sim.pressure.solidFaces.on = cut;
  for (let f = 0; f < frames; f++) eng.stepFrame();
  const s = eng.sim.store, u = s.u;
  let worst = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] !== FLUID) continue;
    for (let a = 0; a < 3; a++) {
      worst = Math.max(worst, Math.abs(u[a][c]), Math.abs(u[a][s.nb[6 * c + 2 * a + 1]]));
    }
  }
  // The cut faces are there to weigh (576 beside the honey's 1184 cells; the water's, at 2.5 mm, ~9 000 cells deep:
  // the multigrid's path).
  if (cut) expect(eng.sim.pressure.solidFaces.cut).toBeGreaterThan(100);
  return worst;
}

describe('a still liquid in a container object on the grid', () => {
  for (const [name, m] of [['water', { density: 1000, viscosity: 0.001, cell: 0.0025 }], ['honey', { density: 1420, viscosity: 5, cell: 0.005 }]] as const) {
    it(`rests, ${name}, the pressure's faces voxelized and cut by the cup's surface`, () => {
      const plain = restSpeed(m, false, 8), cut = restSpeed(m, true, 8);
      console.log(`${name} in the cup, largest face speed after 8 frames: voxelized ${(1e6 * plain).toFixed(3)} µm/s, cut ${(1e6 * cut).toFixed(3)} µm/s`);
      // Both ~1e-8 m/s (water) and ~1e-9 (honey) here: 10 µm/s is the solve's tolerance's scale, not a flow.
      expect(plain).toBeLessThan(1e-5);
      expect(cut).toBeLessThan(1e-5);
    });
  }
});
