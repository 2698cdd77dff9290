/**
 * The film measures of tests/grid/film.ts on rims drawn by hand: a circle, a square along the axes
 * and the same square turned 45°, so that `axisShare` (the share of a rim's length along the axes,
 * the stepped polygon of soap-pour's rim) reads what it says.
 */
import { describe, expect, it } from 'vitest';
import { FILM_BINS, rimFigures } from './film.ts';

/** r(θ) in FILM_BINS directions (bin centres) of a shape given by its radius function. */
function rim(radius: (t: number) => number): Float64Array {
  const r = new Float64Array(FILM_BINS);
  for (let b = 0; b < FILM_BINS; b++) r[b] = radius((2 * Math.PI * (b + 0.5)) / FILM_BINS);
  return r;
}

describe('film measures', () => {
  it('a circle is round: no spread, no harmonics, at most a ninth of its length within 5° of an axis', () => {
    const f = rimFigures(rim(() => 0.05));
    expect(f.rim).toBeCloseTo(0.05, 12);
    expect(f.spread).toBeLessThan(1e-12);
    expect(f.harmonic4).toBeLessThan(1e-12);
    // 72 chords turning 5° from one to the next: one or two per axis lie within 5° of it (a ninth
    // of the directions, the share of a smooth curve's length).
    expect(f.axisShare).toBeGreaterThan(3 / 72);
    expect(f.axisShare).toBeLessThan(9 / 72);
  });

  it('a square along the axes is nearly all along the axes; turned 45°, only its corners', () => {
    const square = rimFigures(rim((t) => 0.05 / Math.max(Math.abs(Math.cos(t)), Math.abs(Math.sin(t)))));
    const turned = rimFigures(rim((t) => 0.05 / Math.max(Math.abs(Math.cos(t + Math.PI / 4)), Math.abs(Math.sin(t + Math.PI / 4)))));
    console.log(`square: along the axes ${(100 * square.axisShare).toFixed(1)} %, 4th harmonic ${(100 * square.harmonic4).toFixed(1)} %; turned: ${(100 * turned.axisShare).toFixed(1)} %`);
    // Only the four chords across the corners are not along an axis; turned, only those are.
    expect(square.axisShare).toBeGreaterThan(0.9);
    expect(turned.axisShare).toBeLessThan(0.07);
    // The 4th harmonic sees the square's corners whichever way it is turned.
    expect(square.harmonic4).toBeGreaterThan(0.03);
    expect(turned.harmonic4).toBeCloseTo(square.harmonic4, 6);
  });
});
