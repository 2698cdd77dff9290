/**
 * A liquid coat on a ball in a marker-tracked grid run, and what a viscous film on a sphere does
 * (tests/grid/coat-drain.test.ts; bench/grid-coat-drain.ts prints the same bands over a run).
 *
 * The reference is the lubrication (thin-film) equation on a sphere of radius R, the film's
 * thickness h(θ, t) at polar angle θ from the top (Takagi & Huppert 2010, J. Fluid Mech. 647,
 * "Flow and instability of thin films on a cylinder and sphere", §4):
 *
 *   ∂h/∂t + (R sin θ)⁻¹ ∂_θ(sin θ q) = 0,   q = g sin θ h³ / 3ν,
 *
 * integrated here by finite volumes in θ (upwind: the film flows down), from a given profile. At
 * late times it forgets that profile and drains as h = (ν R / g t)^½ H(θ),
 * H(θ) = (∫₀^θ sin^⅓ θ' dθ')^½ / sin^⅔ θ (`similarity`).
 */
import type { GridSimulation } from '../../src/grid/step.ts';
import { FLUID } from '../../src/grid/store.ts';
import { MarkerTracker } from '../../src/grid/trackers/markers.ts';

export interface Ball {
  centre: readonly number[];
  radius: number;
}

/**
 * The coat's mean thickness (m) in bands of polar angle (edges in degrees from the top): the
 * markers' volume within `shell` of the ball's surface over the band's area on it.
 */
export function coatThickness(sim: GridSimulation, ball: Ball, edges: readonly number[], shell: number): number[] {
  if (!(sim.tracker instanceof MarkerTracker)) throw new Error('the marker tracker is needed');
  const m = sim.tracker.markers, h = sim.d.h, unit = (h * h * h) / sim.scene.grid.markersPerCell;
  const R = ball.radius, rad = Math.PI / 180, B = edges.length - 1;
  const vol = new Float64Array(B);
  for (let q = 0; q < m.count; q++) {
    const x = m.pos[3 * q] - ball.centre[0], y = m.pos[3 * q + 1] - ball.centre[1], z = m.pos[3 * q + 2] - ball.centre[2];
    const r = Math.hypot(x, y, z);
    if (r > R + shell) continue;
    const theta = Math.acos(Math.max(-1, Math.min(1, y / r))) / rad;
    for (let b = 0; b < B; b++) {
      if (theta >= edges[b] && theta < edges[b + 1]) { vol[b] += m.weight[q] * unit; break; }
    }
  }
  return Array.from(vol, (v, b) => v / (2 * Math.PI * R * R * (Math.cos(edges[b] * rad) - Math.cos(edges[b + 1] * rad))));
}

/**
 * The thin-film equation on the sphere's upper half, from the band thicknesses `start` (edges in
 * degrees, the first 0; each band uniform) for `duration` seconds: the band means at the end.
 * Beyond the last edge the film leaves (upwind outflow).
 */
export function lubricationBands(start: readonly number[], edges: readonly number[], R: number, nu: number, g: number, duration: number): number[] {
  const rad = Math.PI / 180, top = edges[edges.length - 1] * rad, N = 4 * Math.round(edges[edges.length - 1]);
  const dth = top / N, h = new Float64Array(N), area = new Float64Array(N), ring = new Float64Array(N + 1);
  for (let i = 0; i <= N; i++) ring[i] = 2 * Math.PI * R * Math.sin(i * dth);
  for (let i = 0; i < N; i++) {
    area[i] = 2 * Math.PI * R * R * (Math.cos(i * dth) - Math.cos((i + 1) * dth));
    const deg = (i + 0.5) * dth / rad;
    let b = 0;
    while (b < start.length - 1 && deg >= edges[b + 1]) b++;
    h[i] = start[b];
  }
  const flux = new Float64Array(N + 1);
  let t = 0;
  while (t < duration) {
    let speed = 0;
    for (let i = 0; i < N; i++) speed = Math.max(speed, (g * h[i] * h[i]) / nu);
    const dt = Math.min(duration - t, (0.4 * R * dth) / Math.max(speed, 1e-9));
    // Face i + 1 carries the film of cell i downhill: q ring, with q = g sin θ h³ / 3ν.
    for (let i = 0; i < N; i++) flux[i + 1] = ((g * Math.sin((i + 1) * dth) * h[i] ** 3) / (3 * nu)) * ring[i + 1];
    for (let i = 0; i < N; i++) h[i] = Math.max(0, h[i] - (dt * (flux[i + 1] - flux[i])) / area[i]);
    t += dt;
  }
  const out: number[] = [];
  for (let b = 0; b < edges.length - 1; b++) {
    let v = 0, a = 0;
    for (let i = 0; i < N; i++) {
      const deg = (i + 0.5) * dth / rad;
      if (deg >= edges[b] && deg < edges[b + 1]) { v += h[i] * area[i]; a += area[i]; }
    }
    out.push(v / a);
  }
  return out;
}

/** Takagi & Huppert's late-time film, m, at polar angle θ (degrees) and time t from its start. */
export function similarity(thetaDeg: number, R: number, nu: number, g: number, t: number): number {
  const theta = (thetaDeg * Math.PI) / 180;
  if (theta < 1e-6) return Math.sqrt((3 * nu * R) / (4 * g * t));
  const n = 2000, d = theta / n;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.sin((i + 0.5) * d) ** (1 / 3) * d;
  return Math.sqrt((nu * R) / (g * t)) * (Math.sqrt(sum) / Math.sin(theta) ** (2 / 3));
}

/**
 * The share of directions from the ball's centre (a Fibonacci sphere of n) in each band of polar
 * angle whose ray, from the ball's surface out to `shell` beyond it, meets no liquid cell: the
 * coat's open share as the grid solves it (bench/grid-coat-holes.ts's "cells" column).
 */
export function openShare(sim: GridSimulation, ball: Ball, edges: readonly number[], shell: number, n = 1500): number[] {
  const s = sim.store, d = sim.d, h = d.h, inv = 1 / h, R = ball.radius, B = edges.length - 1;
  const open = new Float64Array(B), all = new Float64Array(B), golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n, r = Math.sqrt(1 - y * y), x = Math.cos(golden * i) * r, z = Math.sin(golden * i) * r;
    const deg = (Math.acos(y) * 180) / Math.PI;
    let b = 0;
    while (b < B && deg >= edges[b + 1]) b++;
    if (b >= B) continue;
    all[b]++;
    let hit = false;
    for (let t = R; t <= R + shell && !hit; t += h / 8) {
      const px = ball.centre[0] + t * x, py = ball.centre[1] + t * y, pz = ball.centre[2] + t * z;
      const c = s.find(Math.floor((px - d.origin[0]) * inv), Math.floor((py - d.origin[1]) * inv), Math.floor((pz - d.origin[2]) * inv));
      hit = c >= 0 && s.type[c] === FLUID;
    }
    if (!hit) open[b]++;
  }
  return Array.from(open, (v, b) => v / all[b]);
}
