/**
 * paint-drops' surface colours, taken apart (issue 27): at chosen frames, in one run of the
 * particle engine,
 * - strays: the share of particles most of whose neighbours (within h) are another paint, and of
 *   the blue ones most of whose neighbours are yellow;
 * - the blue particles' own fractions (how much of their colour the colour field has mixed);
 * - the blue coat's thickness: the blue particles' depth below the liquid's surface;
 * - the surface mesh coloured four ways: with the particles' fractions (as the run colours it) or
 *   each particle's own paint, by the surface-aligned colour Gaussian (σ 3 r along, r across, the
 *   default) or the round one of σ = 1.5 r used before; for each, within 50° of straight up the
 *   share of vertices that read a mixture (no paint within 0.05 on every linear channel), within
 *   30° of up (the blue cap) the blue's share in the vertex colours (mean, standard deviation,
 *   share of vertices under 0.85: the pale spots), and over the whole mesh the mixture share and
 *   the distinct vertex colours (8-bit sRGB).
 *
 * npx tsx bench/paint-colours.ts [frames, default 30,45,60,90] [scene, default scenes/paint-drops.json]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';
import { particleSurface } from '../src/surface/particle-surface.ts';
import { linearColor } from '../src/scene/color.ts';
import { neighbourCounts, strayShare } from '../tests/particle/unlike-neighbours.ts';

const frames = (process.argv[2] ?? '30,45,60,90').split(',').map(Number);
const file = process.argv[3] ?? 'scenes/paint-drops.json';
const scene = parseScene(JSON.parse(readFileSync(file, 'utf8')));
const sim = createSimulation(scene, 'particle') as ParticleSimulation;
const names = scene.materialNames;
const blue = names.indexOf('blue'), yellow = names.indexOf('yellow');
const palette = names.map((m) => linearColor(scene.materials[m].color));
const paints = names.map((_, m) => m).filter((m) => scene.materials[names[m]].kind === 'liquid');

function srgb8(c: number): number {
  const s = c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(255 * s)));
}

function isMixture(c: ArrayLike<number>, o: number): boolean {
  return !paints.some((m) => [0, 1, 2].every((k) => Math.abs(c[o + k] - palette[m][k]) < 0.05));
}

function report(frame: number): void {
  const ctx = sim.ctx, L = ctx.liquid, n = L.count, h = ctx.densityH, h2 = h * h, r = ctx.r;
  // Strays, counted as tests/particle/paint-drops.test.ts counts them (tests/particle/unlike-neighbours.ts).
  const counts = neighbourCounts(L.pos, L.material, n, h, yellow);
  const strays = strayShare(counts), blueAmongYellow = strayShare(counts, L.material, blue);
  const grid = new HashGrid(h);
  grid.build(L.pos, n);
  const cells = new Int32Array(27);
  // The blue particles' own share of blue, and their depth below the liquid's outer surface
  // (distance from the ball's centre: the coat's outer radius in the particle's direction is the
  // largest radius of any liquid particle within 30° of it).
  const mixing = ctx.mixing, w = mixing?.width ?? 0, mix = mixing?.fractions.array;
  let ownSum = 0, ownLow = 0, nb = 0;
  const depths: number[] = [];
  const rad = new Float64Array(n);
  for (let i = 0; i < n; i++) rad[i] = Math.hypot(L.pos[3 * i], L.pos[3 * i + 1], L.pos[3 * i + 2]);
  for (let i = 0; i < n; i++) {
    if (L.material[i] !== blue || rad[i] > 0.06) continue;
    nb++;
    const own = mix ? mix[w * i + blue] : 1;
    ownSum += own;
    if (own < 0.8) ownLow++;
  }
  // Coat depth: for blue particles on the ball (r < 6 cm) within 50° of up, the number of liquid
  // particles within 2r laterally and further out (a column count).
  let onTop = 0, bottomBlue = 0;
  const cos50 = Math.cos((50 * Math.PI) / 180);
  for (let i = 0; i < n; i++) {
    if (rad[i] > 0.06 || L.pos[3 * i + 1] < rad[i] * cos50) continue;
    if (L.material[i] !== blue) continue;
    onTop++;
    // Is there a non-blue particle below this one (towards the ball's centre, within a cone of 2r)?
    const ux = L.pos[3 * i] / rad[i], uy = L.pos[3 * i + 1] / rad[i], uz = L.pos[3 * i + 2] / rad[i];
    let under = false;
    const m = grid.cellsNear(L.pos[3 * i], L.pos[3 * i + 1], L.pos[3 * i + 2], cells, 1);
    for (let q = 0; q < m && !under; q++) {
      for (let s = grid.start[cells[q]], e = s + grid.count[cells[q]]; s < e; s++) {
        const j = grid.order[s];
        if (L.material[j] === blue) continue;
        const dx = L.pos[3 * j] - L.pos[3 * i], dy = L.pos[3 * j + 1] - L.pos[3 * i + 1], dz = L.pos[3 * j + 2] - L.pos[3 * i + 2];
        const along = -(dx * ux + dy * uy + dz * uz);
        const lateral2 = dx * dx + dy * dy + dz * dz - along * along;
        if (along > 0.5 * r && lateral2 < (2 * r) ** 2 && dx * dx + dy * dy + dz * dz < h2) {
          under = true;
          break;
        }
      }
    }
    if (under) bottomBlue++;
    depths.push(rad[i]);
  }
  // Surface: with the fractions' colours (as the run) and with each particle's own paint, by
  // the default colour kernel and the round one used before.
  const own = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) own.set(palette[L.material[i]], 3 * i);
  const mixed = mixing ? mixing.particleColours(n) : own;
  const base = { count: n, positions: L.pos.slice(0, 3 * n), radius: r, surface: L.surface.slice(0, n), normals: L.normal.slice(0, 3 * n) };
  const round = { colourAlong: 1.5, colourAcross: 1.5 };
  const cos30 = Math.cos(Math.PI / 6);
  const pb = palette[blue], py = palette[yellow];
  const top = (colors: Float32Array, options: { colourAlong?: number; colourAcross?: number }) => {
    const mesh = particleSurface({ ...base, colors }, scene.output, options);
    const P = mesh.positions, C = mesh.colors!, N = mesh.normals, nv = P.length / 3;
    let t = 0, mixedTop = 0, all = 0, cap = 0, sum = 0, sum2 = 0, pale = 0;
    const distinct = new Set<number>();
    for (let v = 0; v < nv; v++) {
      distinct.add((srgb8(C[3 * v]) << 16) | (srgb8(C[3 * v + 1]) << 8) | srgb8(C[3 * v + 2]));
      if (isMixture(C, 3 * v)) all++;
      const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2], d = Math.hypot(x, y, z);
      if (d > 0.06 || y < d * cos50) continue;
      t++;
      if (isMixture(C, 3 * v)) mixedTop++;
      // The blue cap's outer face: the blue's share b of a blue–yellow blend, from the red channel.
      if (y < d * cos30 || (N[3 * v] * x + N[3 * v + 1] * y + N[3 * v + 2] * z) / d < 0.5) continue;
      const b = Math.min(1, Math.max(0, (C[3 * v] - py[0]) / (pb[0] - py[0])));
      cap++;
      sum += b;
      sum2 += b * b;
      if (b < 0.85) pale++;
    }
    const mean = sum / Math.max(1, cap), sd = Math.sqrt(Math.max(0, sum2 / Math.max(1, cap) - mean * mean));
    return `top ${((100 * mixedTop) / Math.max(1, t)).toFixed(1)} % mixture of ${t}; cap blue ${mean.toFixed(3)} ± ${sd.toFixed(3)}, under 0.85 ${((100 * pale) / Math.max(1, cap)).toFixed(1)} % of ${cap}; all ${((100 * all) / nv).toFixed(1)} % mixture of ${nv}, ${distinct.size} distinct`;
  };
  console.log(`frame ${frame} t=${(frame / scene.fps).toFixed(3)} s  ${n} particles`);
  console.log(`  strays ${(100 * strays.share).toFixed(1)} %; blue among mostly yellow ${(100 * blueAmongYellow.share).toFixed(1)} % of ${blueAmongYellow.counted}`);
  console.log(`  blue on ball ${nb}: own fraction mean ${(ownSum / Math.max(1, nb)).toFixed(3)}, < 0.8: ${((100 * ownLow) / Math.max(1, nb)).toFixed(1)} %`);
  console.log(`  blue within 50° of up ${onTop}: with a non-blue particle under it ${((100 * bottomBlue) / Math.max(1, onTop)).toFixed(1)} %`);
  console.log(`  fractions, aligned (run):  ${top(mixed, {})}`);
  console.log(`  fractions, round 1.5 r:    ${top(mixed, round)}`);
  console.log(`  own paints, aligned:       ${top(own, {})}`);
  console.log(`  own paints, round 1.5 r:   ${top(own, round)}`);
}

let f = 0;
for (const target of frames) {
  while (f < target) {
    sim.stepFrame();
    f++;
  }
  report(f);
}
