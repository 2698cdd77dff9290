/**
 * The default scene (scenes/honey-drop.json: 5 Pa·s honey dropped on a ball) on the grid engine
 * over its full 4 s: the liquid keeps its volume within 5 % at every frame (Metrics.volumeChange).
 * At 1 cm cells (a ball 5 cells in radius, 20 s of CPU) this always runs; at the scene's 5 mm cells
 * it also checks that the honey's surface mesh still coats the ball at the end (the share of directions from the
 * ball's centre with a mesh vertex within two cells of its surface), a film thinner than two cells
 * on its upper half. A long test (120 frames of the default scene, minutes on two cores): it runs
 * with VISCID_LONG=1 (BENCHMARKS.md has its figures).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { filmCoverage } from './honey-film.ts';
import { describeLong } from '../long.ts';

const honeyDrop = () => parseScene(JSON.parse(readFileSync(new URL('../../scenes/honey-drop.json', import.meta.url), 'utf8')));

describe('honey drop on the grid, 1 cm cells', () => {
  it('keeps its volume within 5 % over 4 s, stable with MacCormack advection and implicit viscosity', () => {
    const scene = honeyDrop();
    scene.grid.cellSize = 0.01;
    expect(scene.grid.advection).toBe('maccormack');
    const sim = createSimulation(scene, 'grid');
    const frames = Math.round(scene.duration * scene.fps);
    let worst = 0;
    for (let f = 0; f < frames; f++) {
      sim.stepFrame();
      const m = sim.metrics();
      expect(m.liquidGone).toBe(false);
      // Stable: nothing faster than a fall from the whole box's height (about 2 m/s) by far.
      expect(m.maxSpeed).toBeLessThan(5);
      worst = Math.max(worst, Math.abs(m.volumeChange!));
    }
    expect(sim.time).toBeCloseTo(4, 6);
    expect(worst).toBeLessThan(0.05);
  });
});

describeLong(import.meta, 'honey drop on the grid (VISCID_LONG=1)', () => {
  it('keeps its volume within 5 % over 4 s and leaves a honey film on the ball', () => {
    const scene = honeyDrop();
    const sim = createSimulation(scene, 'grid');
    const frames = Math.round(scene.duration * scene.fps);
    let worst = 0;
    for (let f = 0; f < frames; f++) {
      sim.stepFrame();
      worst = Math.max(worst, Math.abs(sim.metrics().volumeChange!));
    }
    const cover = filmCoverage(sim.surfaceMesh(), [0, 0, 0], 0.05, 2 * scene.grid.cellSize);
    console.log(`honey drop, grid, ${sim.time.toFixed(2)} s: largest volume change ${(100 * worst).toFixed(2)} %, film on ${(100 * cover.all).toFixed(0)} % of the ball (upper half ${(100 * cover.top).toFixed(0)} %)`);
    expect(worst).toBeLessThan(0.05);
    // Measured: 99 % and 99 % with held sheets meshed through their particles and sheet seeds (92 % and
    // 87 % before them); 93 % and 88 % at the sheet rule's round (main before the sheet rule 87 % and 87 %; the sheet rule with the
    // volume correction taken from every cell alike left 78 % and 65 %: docs/decisions.md).
    expect(cover.top).toBeGreaterThan(0.8);
    expect(cover.all).toBeGreaterThan(0.8);
  }, 900_000);
});
