/**
 * The implicit viscosity's products on the GPU (viscosity-wgsl.ts includes them; the CPU's is
 * src/particle/viscosity-weiler-product.ts): A v at a slot, from the positions, or from the slot's
 * pair list, which viscSetup writes once a solve (the coefficients of the system of Weiler,
 * Koschier, Brand & Bender 2018 §4 do not change within a solve: the positions, volumes and
 * temperatures are fixed while it runs), so each CG iteration's product is a sum of stored terms,
 * the same terms in the same order and the same f32 arithmetic as the loop over the neighbours:
 * the same bits.
 *
 * The list of slot a, in the cg buffer after its sections (the section `head` and `most` sections
 * after it, each one vec4 per slot: coalesced where a workgroup's slots read the same entry):
 *   head (k₁, k₂, m, −): the neighbours' groups in entries [0, k₁), a's own ghosts' group in
 *     [k₁, k₂), then the m object particles within h, (o, e_ib) two to an entry (e_ib = δt K μ γ_o
 *     f_o F(r), the loop over the objects' cells); k₂ = −1 where the list did not fit (the products
 *     loop over the cells then);
 *   a group (b, e, faces, c₀) then ⌈(g − 1) / 4⌉ entries of c₁ … c_{g−1} four to an entry: the
 *     neighbour b (as f32, exact below 2²⁴), its pair coefficient e = δt K μ F(r) q_a q_b, the walls
 *     across which b has a ghost within h of a (bits of the faces, g of them) and each ghost's
 *     coefficient c = δt K μ q_a q_b F(|x′|), in the faces' order. a's own group has e = 0.
 */
import { around } from './wgsl.ts';
import { aroundObjects } from './objects.ts';

/** The cg buffer's sections (viscosity-wgsl.ts CG_*) that the products read. */
export interface ProductSections { WD: number; N: number; head: number }

/** Entries after the head a slot's list may take at most (viscosity-solve.ts takes fewer where the buffer would pass the device's limit). */
export const LIST_MOST = 96;

/**
 * The WGSL: ghostTerm (one ghost's term of ghostTerms), listGroup (viscSetup writes a group), and
 * for each of `products` (a name and its vectors, each read as `v(b)`, a WGSL expression of slot b)
 * two functions: name(a) from the positions and nameListed(a) from the list, the same sums.
 */
export function productsWgsl(cg: ProductSections, products: [string, ...((b: string) => string)[]][]): string {
  return /* wgsl */ `
fn listAt(k: u32, a: u32) -> u32 { return sec(${cg.head + 1}u + k, a); }
fn listed(a: u32) -> bool { return cg[sec(${cg.head}u, a)].y >= 0.0; }

// One ghost's term (x′ = g across face f, coefficient c) of row a's product with va, vb.
fn ghostTerm(g: vec3<f32>, c: f32, f: u32, va: vec3<f32>, vb: vec3<f32>) -> vec3<f32> {
  let axis = f >> 1u;
  if ((P.sticky & (1u << f)) != 0u) {
    // No slip: the ghost moves with −v_b; B t = ½ (x′ (x′·t) + M x′ ((M x′)·t)), t = v_a + v_b.
    let t = va + vb;
    var m = g;
    m[axis] = -g[axis];
    return 0.5 * c * (g * dot(g, t) + m * dot(m, t));
  }
  var mw = vb;
  mw[axis] = -vb[axis];
  return (c * dot(g, va - mw)) * g;
}

// Writes b's group (e its pair coefficient, pk the ghosts' factor) at entry k of a's list of red[1].y
// entries; the entry after it, or red[1].y + 1 where it does not fit (then nothing more is written).
fn listGroup(a: u32, k: u32, b: u32, e: f32, xa: vec3<f32>, xb: vec3<f32>, pk: f32, wm: u32) -> u32 {
  let most = u32(red[1].y);
  let h = P.hv;
  var faces = 0u;
  var c: array<f32, 6>;
  var n = 0u;
  for (var m = wm; m != 0u; m = m & (m - 1u)) {
    let f = firstTrailingBit(m);
    let g = wallGhost(xa, xb, f);
    let g2 = dot(g, g);
    if (g2 >= h * h) { continue; }
    faces = faces | (1u << f);
    c[n] = pk * pairF(g2, h);
    n++;
  }
  let used = 1u + (max(n, 1u) + 2u) / 4u;
  if (k + used > most) { return most + 1u; }
  cg[listAt(k, a)] = vec4<f32>(f32(b), e, f32(faces), c[0]);
  for (var j = 1u; j < n; j++) { cg[listAt(k + 1u + (j - 1u) / 4u, a)][(j - 1u) % 4u] = c[j]; }
  return k + used;
}

// Writes object o's coefficient c as the j-th of a's list's objects, two to an entry from entry k; false where it does not fit.
fn listObject(a: u32, k: u32, j: u32, o: u32, c: f32) -> bool {
  let at = k + j / 2u;
  if (at + 1u > u32(red[1].y)) { return false; }
  let i = 2u * (j % 2u);
  cg[listAt(at, a)][i] = f32(o);
  cg[listAt(at, a)][i + 1u] = c;
  return true;
}

// The ghosts' terms of the group at entry k of a's list (head e), summed as ghostTerms sums them.
fn listGhosts(a: u32, k: u32, e: vec4<f32>, xa: vec3<f32>, xb: vec3<f32>, va: vec3<f32>, vb: vec3<f32>) -> vec3<f32> {
  var s = vec3<f32>(0.0);
  var j = 0u;
  for (var m = u32(e.z); m != 0u; m = m & (m - 1u)) {
    let f = firstTrailingBit(m);
    var c = e.w;
    if (j > 0u) { c = cg[listAt(k + 1u + (j - 1u) / 4u, a)][(j - 1u) % 4u]; }
    s += ghostTerm(wallGhost(xa, xb, f), c, f, va, vb);
    j++;
  }
  return s;
}
${products.map(([name, ...vs]) => applyFn(cg, name, false, vs) + applyFn(cg, `${name}Listed`, true, vs)).join('')}`;
}

/**
 * A(v) at slot a for each v of `vs`: one vector, fn name(a) -> vec3; two, fn name(a) -> array<vec3<f32>, 2>,
 * both products summed in one pass over the neighbours and the objects, each in the order it has alone
 * (viscStart takes A v* and A x so: one neighbour loop, not two). From the positions, the walls' ghosts
 * tried only across the walls within reach of a (ghostReach); or (`listed`) from a's list.
 */
function applyFn(cg: ProductSections, name: string, listed: boolean, vs: ((b: string) => string)[]): string {
  const K = vs.map((_, k) => k);
  const each = (f: (k: number) => string): string => K.map(f).join('\n    ');
  const pair = (ghosts: (k: number) => string): string => each((k) => `let vb${k} = ${vs[k]('b')};
    s${k} += (fb * dot(rv, va${k} - vb${k})) * rv;
    s${k} += ${ghosts(k)};`);
  const neighbours = listed
    ? /* wgsl */ `let head = cg[sec(${cg.head}u, a)];
  let k1 = u32(head.x);
  var at = 0u;
  while (at < k1) {
    let e = cg[listAt(at, a)];
    let b = u32(e.x);
    let xb = pos[b].xyz;
    let rv = xa - xb;
    let fb = e.y;
    ${pair((k) => `listGhosts(a, at, e, xa, xb, va${k}, vb${k})`)}
    at += 1u + (max(countOneBits(u32(e.z)), 1u) + 2u) / 4u;
  }
  let own = cg[listAt(k1, a)];
  ${each((k) => `s${k} += listGhosts(a, k1, own, xa, xa, va${k}, va${k});`)}
  let k2 = u32(head.y);`
    : /* wgsl */ `let wm = ghostReach(xa);
  ${around('P.hv', `
    let pkb = red[0].x * viscRatio(la, liquidOf(b)) * factorMean(fa, factorOf(b)) * vq(a, b);
    let fb = pkb * pairF(d2, h);
    let xb = pos[b].xyz;
    ${pair((k) => `ghostTerms(xa, xb, va${k}, vb${k}, pkb, wm)`)}`)}
  ${each((k) => `s${k} += ghostTerms(xa, xa, va${k}, va${k}, pk * vq(a, a), wm);`)}`;
  return /* wgsl */ `
fn ${name}(a: u32) -> ${vs.length === 1 ? 'vec3<f32>' : `array<vec3<f32>, ${vs.length}>`} {
  let xa = pos[a].xyz;
  ${each((k) => `let va${k} = ${vs[k]('a')};`)}
  let h = P.hv;
  // Each liquid its own ρ and each pair its own K μ (liquids-wgsl.ts; 1 and 1 with one liquid), times
  // the temperature's factors (temperature.ts: the pair's harmonic mean; 1 without a law).
  let la = liquidOf(a);
  let fa = factorOf(a);
  let pk = red[0].x * viscRatio(la, la) * fa;
  ${each((k) => `var s${k} = (red[0].y * rhoRatioOf(la)) * va${k};`)}
  ${neighbours}
  ${each((k) => `s${k} += cg[sec(${cg.WD}u, a)].xyz * va${k};`)}
  if (P.om > 0u) {
    // T X T v (viscosity-weiler-product.ts rowExtra): v on the tangent plane, X, the result on it.
    let nrm = cg[sec(${cg.N}u, a)].xyz;
    ${each((k) => `let tv${k} = va${k} - dot(va${k}, nrm) * nrm;
    var ob${k} = vec3<f32>(0.0);`)}
    ${listed ? /* wgsl */ `for (var j = 0u; j < u32(head.z); j++) {
      let e = cg[listAt(k2 + j / 2u, a)];
      let i = 2u * (j % 2u);
      let rv = xa - pos[u32(e[i])].xyz;
      let fo = e[i + 1u];
      ${each((k) => `ob${k} += (fo * dot(rv, tv${k})) * rv;`)}
    }` : aroundObjects('P.hv', `let fo = pk * pos[o].w * objectFriction(o) * pairF(d2, h);
    ${each((k) => `ob${k} += (fo * dot(rv, tv${k})) * rv;`)}`)}
    ${each((k) => `s${k} += ob${k} - dot(ob${k}, nrm) * nrm;`)}
  }
  return ${vs.length === 1 ? 's0' : `array<vec3<f32>, ${vs.length}>(${K.map((k) => `s${k}`).join(', ')})`};
}`;
}
