/**
 * Liquid volume fractions of the variational viscosity's control volumes (Batty & Bridson 2008,
 * §5: the cube of side h centred on each stress or velocity sample), estimated as in Batty's code by
 * splitting every cell into eight cubes of side h/2: each small cube's fraction is
 * clamp(½ − φ/(h/2), 0, 1) with φ trilinear from the cell centres at the small cube's centre
 * (exact for a plane along an axis; solid cells' φ reads as the cell's own, the liquid extended into
 * the solid), and 0 in solid cells, so that a wall or object is no liquid. Where the objects' exact
 * signed distance is given, each small cube of an object's cell and of the cells beside one is
 * weighed by its open fraction instead (openFraction; Batty, Bertails & Bridson 2007's solid weights
 * from the exact surface), so a control volume counts the object's true shape, not its cells'
 * staircase (box walls lie on cell faces and stay as they are). Beyond an open face of the
 * box the first layer of cells copies its inner neighbour's cubes (the liquid flows on out).
 * A control volume is the mean of the eight small cubes it covers:
 *  - a cell centre (τ_xx, τ_yy, τ_zz): the cell's own eight;
 *  - the min face along a of cell c (u_a): the four low-a cubes of c and the four high-a cubes of
 *    its −a neighbour;
 *  - the edge of c along the third axis e between the a and b min faces (τ_ab): two cubes from
 *    each of c, c − a, c − b, c − a − b.
 */
import { SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const SOLID = SOLID_;

/** Edge kinds: the pair of axes (a, b) whose shear τ_ab the edge carries. */
export const EDGE_A = [0, 0, 1] as const;
export const EDGE_B = [1, 2, 2] as const;

/** The objects' exact geometry for the fractions: their signed distance (m, negative inside) and the grid's origin. */
export interface SolidGeometry {
  distance: (x: number, y: number, z: number) => number;
  origin: ArrayLike<number>;
}

/** Whether cell c is an object's cell (solid, not a box wall) or has one across a face. */
function touchesObject(s: GridStore, c: number): boolean {
  const { nb, type, wall } = s;
  if (type[c] === SOLID) return wall[c] === 0;
  for (let d = 0; d < 6; d++) {
    const m = nb[6 * c + d];
    if (m >= 0 && type[m] === SOLID && wall[m] === 0) return true;
  }
  return false;
}

/**
 * The open (not object) fraction of a cube of side h/2 whose centre lies at signed distance d from the
 * objects' surface: clamp(½ + d/(h/2), 0, 1), exact for a plane along an axis (the liquid's
 * fraction's formula, the sign turned).
 */
export function openFraction(d: number, h: number): number {
  const f = 0.5 + (2 * d) / h;
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/** Beyond this many cells from the objects' surface a cell's small cubes are wholly open or shut (weighOpen). */
const OPEN_SETTLED = 0.75;

/** Multiplies cell c's eight small cubes' liquid fractions by their open fractions. */
function weighOpen(s: GridStore, c: number, h: number, solid: SolidGeometry, fine: Float64Array): void {
  const o = solid.origin, q = h / 4;
  const x0 = o[0] + h * (s.ci[c] + 0.5), y0 = o[1] + h * (s.cj[c] + 0.5), z0 = o[2] + h * (s.ck[c] + 0.5);
  // The small cubes' centres lie √3 h/4 from the cell's and a cube is wholly open (shut) a quarter
  // cell out of (into) the object: a distance field that changes no faster than the distance settles
  // all eight from the centre's beyond OPEN_SETTLED cells.
  const dc = solid.distance(x0, y0, z0);
  if (dc >= OPEN_SETTLED * h) return;
  if (dc <= -OPEN_SETTLED * h) {
    fine.fill(0, 8 * c, 8 * c + 8);
    return;
  }
  for (let k = 0; k < 8; k++) {
    const b = 8 * c + k;
    if (fine[b] <= 0) continue;
    fine[b] *= openFraction(solid.distance(x0 + (k & 1 ? q : -q), y0 + (k & 2 ? q : -q), z0 + (k & 4 ? q : -q)), h);
  }
}

export class ViscosityFractions {
  /** Eight small-cube fractions per cell, octant o = ox + 2 oy + 4 oz (1 = the high half). */
  fine = new Float64Array(0);
  /** Per cell: centre fraction. */
  centre = new Float64Array(0);
  /** Per cell, 3 per cell: the min face along a. */
  face = new Float64Array(0);
  /** Per cell, 3 per cell: the edges (x,y), (x,z), (y,z) at the cell's min corner lines. */
  edge = new Float64Array(0);

  private ensure(n: number): void {
    if (this.centre.length >= n) return;
    const m = Math.ceil(n * 1.3) + 16;
    this.fine = new Float64Array(8 * m);
    this.centre = new Float64Array(m);
    this.face = new Float64Array(3 * m);
    this.edge = new Float64Array(3 * m);
  }

  /**
   * Fractions from φ at the cell centres (negative in the liquid), m; h the cell size. With `solid`
   * (the objects' exact signed distance, m, negative inside, and the domain's origin) each small cube
   * beside an object's cells is weighed by its open fraction (openFraction), the object's cells'
   * own small cubes included: the objects' true surface, not their cells' staircase.
   */
  compute(s: GridStore, phi: Float64Array, h: number, solid: SolidGeometry | null = null): void {
    const n = s.count;
    this.ensure(n);
    const { fine, centre, face, edge } = this;
    const { nb, type, wall } = s;
    const inv = 2 / h;
    for (let c = 0; c < n; c++) {
      const nearObject = solid !== null && touchesObject(s, c);
      if (type[c] === SOLID && !(nearObject && wall[c] === 0)) {
        fine.fill(0, 8 * c, 8 * c + 8);
        continue;
      }
      const p0 = phi[c];
      for (let o = 0; o < 8; o++) {
        // The 2×2×2 block of cells c, c ± x, c ± y, c ± z… towards the octant; weights ¾ and ¼.
        const dx = o & 1 ? 1 : 0, dy = o & 2 ? 3 : 2, dz = o & 4 ? 5 : 4;
        const cx = nb[6 * c + dx], cy = nb[6 * c + dy], cz = nb[6 * c + dz];
        // A missing or solid cell reads as the cell's own φ: the liquid extended into walls and objects.
        const px = cx >= 0 && type[cx] !== SOLID ? phi[cx] : p0, py = cy >= 0 && type[cy] !== SOLID ? phi[cy] : p0, pz = cz >= 0 && type[cz] !== SOLID ? phi[cz] : p0;
        const cxy = cx >= 0 ? nb[6 * cx + dy] : -1, cxz = cx >= 0 ? nb[6 * cx + dz] : -1, cyz = cy >= 0 ? nb[6 * cy + dz] : -1;
        const pxy = cxy >= 0 && type[cxy] !== SOLID ? phi[cxy] : 0.5 * (px + py), pxz = cxz >= 0 && type[cxz] !== SOLID ? phi[cxz] : 0.5 * (px + pz), pyz = cyz >= 0 && type[cyz] !== SOLID ? phi[cyz] : 0.5 * (py + pz);
        const cxyz = cxy >= 0 ? nb[6 * cxy + dz] : -1;
        const pxyz = cxyz >= 0 && type[cxyz] !== SOLID ? phi[cxyz] : (pxy + pxz + pyz) / 3;
        const lo = 0.75 * (0.75 * (0.75 * p0 + 0.25 * px) + 0.25 * (0.75 * py + 0.25 * pxy));
        const hi = 0.75 * (0.75 * pz + 0.25 * pxz) + 0.25 * (0.75 * pyz + 0.25 * pxyz);
        const f = 0.5 - (lo + 0.25 * hi) * inv;
        fine[8 * c + o] = f < 0 ? 0 : f > 1 ? 1 : f;
      }
      if (nearObject) weighOpen(s, c, h, solid!, fine);
    }
    // Beyond an open face of the box the liquid is taken to continue as it is on the inside (an
    // outflow): the first layer of cells there copies the small cubes of its inner neighbour.
    for (let c = 0; c < n; c++) {
      const w = wall[c];
      if (w === 0 || w === 7 || type[c] === SOLID) continue;
      const f = w - 1, inner = nb[6 * c + 2 * (f >> 1) + (f & 1 ? 0 : 1)];
      if (inner >= 0 && wall[inner] === 0) fine.copyWithin(8 * c, 8 * inner, 8 * inner + 8);
    }
    for (let c = 0; c < n; c++) {
      const b = 8 * c;
      centre[c] = 0.125 * (fine[b] + fine[b + 1] + fine[b + 2] + fine[b + 3] + fine[b + 4] + fine[b + 5] + fine[b + 6] + fine[b + 7]);
      for (let a = 0; a < 3; a++) {
        const m = nb[6 * c + 2 * a];
        const bit = 1 << a;
        let sum = 0;
        for (let o = 0; o < 8; o++) {
          if (o & bit) { if (m >= 0) sum += fine[8 * m + o]; }
          else sum += fine[b + o];
        }
        face[3 * c + a] = 0.125 * sum;
      }
      for (let e = 0; e < 3; e++) {
        const a = EDGE_A[e], bb = EDGE_B[e];
        const ma = nb[6 * c + 2 * a], mb = nb[6 * c + 2 * bb];
        const mab = ma >= 0 ? nb[6 * ma + 2 * bb] : -1;
        const ba = 1 << a, bbit = 1 << bb;
        let sum = 0;
        for (let o = 0; o < 8; o++) {
          const hiA = (o & ba) !== 0, hiB = (o & bbit) !== 0;
          const cell = hiA ? (hiB ? mab : ma) : hiB ? mb : c;
          if (cell >= 0) sum += fine[8 * cell + o];
        }
        edge[3 * c + e] = 0.125 * sum;
      }
    }
  }
}
