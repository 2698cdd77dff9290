/**
 * The fast march's accuracy against exact distances, apart from any mirror symmetry: shapes whose
 * distance is known (spheres and Zalesak's slotted sphere at sub-cell offsets, φ scaled by 1.7 so that
 * the march rebuilds every distance) redistanced on cells of h and h/2; prints the RMS and largest
 * error of φ against the exact distance over the band's cells (in cells), and the cells whose sign it
 * changed. Run in two trees to compare two marches (a march whose ties are accepted together against
 * one that takes them in cell order).
 *   npx tsx bench/grid-redistance-accuracy.ts [offsets=8]
 */
import { SOLID } from '../src/grid/store.ts';
import { gridSim, levelSetOf } from '../tests/grid/helpers.ts';

const offsets = Number(process.argv[2] ?? 8);
type Sdf = (x: number, y: number, z: number) => number;
const sphereAt = (cx: number, cy: number, cz: number, r: number): Sdf => (x, y, z) => Math.hypot(x - cx, y - cy, z - cz) - r;
/** Zalesak's slotted sphere (Enright et al. 2002 §6.2's shape): radius r, a slot 0.33 r wide down to 0.25 r under the centre… from the top. */
const slotted = (cx: number, cy: number, cz: number, r: number): Sdf => (x, y, z) => {
  const ball = Math.hypot(x - cx, y - cy, z - cz) - r;
  const w = r / 3, bottom = cy - 0.4 * r;
  // The slot as a box |x − cx| < w/2, y > bottom (to above the sphere): its signed distance (negative inside).
  const qx = Math.abs(x - cx) - w / 2, qy = bottom - y;
  const slot = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0);
  return Math.max(ball, -slot);
};

function measure(h: number, sdf: Sdf): { rms: number; worst: number; cells: number; flipped: number } {
  const sim = gridSim({
    gravity: [0, 0, 0],
    domain: { min: [0, 0, 0], max: [0.32, 0.32, 0.32], boundary: 'slip' },
    materials: { water: { kind: 'liquid', viscosity: { value: 0, unit: 'm2/s' } } },
    bodies: [{ material: 'water', shape: { type: 'box', center: [0.16, 0.16, 0.16], size: [0.2, 0.2, 0.2] } }],
    grid: { cellSize: h, tracking: 'levelset' },
  });
  const s = sim.store, d = sim.d;
  const at = (c: number) => sdf(d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5));
  for (let c = 0; c < s.count; c++) if (s.type[c] !== SOLID) s.phi[c] = Math.max(-sim.band, Math.min(sim.band, 1.7 * at(c)));
  levelSetOf(sim).redistance(s, h, sim.band);
  let sum = 0, worst = 0, cells = 0, flipped = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    const e = at(c);
    if (Math.abs(e) > sim.band - 1.5 * h) continue;
    const err = Math.abs(s.phi[c] - e) / h;
    sum += err * err; worst = Math.max(worst, err); cells++;
    if ((s.phi[c] < 0) !== (e < 0)) flipped++;
  }
  return { rms: Math.sqrt(sum / cells), worst, cells, flipped };
}

for (const [name, make] of [['sphere', sphereAt], ['slotted sphere', slotted]] as const) {
  for (const h of [0.01, 0.005]) {
    let rms = 0, worst = 0, flipped = 0, cells = 0;
    for (let q = 0; q < offsets; q++) {
      // Offsets along a low-discrepancy sequence within a cell; q = 0 on a cell face in x and z (a mirror image).
      const ox = q === 0 ? 0 : ((q * 0.618034) % 1) * h, oz = q === 0 ? 0 : ((q * 0.414214) % 1) * h, oy = ((q * 0.732051) % 1) * h;
      const m = measure(h, make(0.16 + ox, 0.16 + oy, 0.16 + oz, 0.06));
      rms += m.rms / offsets; worst = Math.max(worst, m.worst); flipped += m.flipped; cells += m.cells;
    }
    console.log(`${name} r 6 cm, h ${1000 * h} mm, ${offsets} offsets: RMS error ${rms.toFixed(5)} cells, largest ${worst.toFixed(4)} cells, ${flipped} of ${cells} cells' signs changed`);
  }
}
