/**
 * The implicit viscosity's wall cover on the GPU (viscosity-wgsl.ts includes it; the CPU's is
 * src/particle/viscosity-weiler-wall-cover.ts): the part of a no-slip wall that the mirror ghosts
 * leave uncovered where a free surface cuts the kernel, on the row's diagonal along the wall.
 */
import { COVER_CUT, COVER_FULL } from '../particle/viscosity-weiler-wall-cover.ts';

/**
 * The wall cover (src/particle/viscosity-weiler-wall-cover.ts coverWalls, row for row): coverGhost
 * adds b's ghost in each closed wall of wm (viscosity-wgsl.ts ghostReach) within h to the wall's drag along it (present: e (x′_t1² +
 * x′_t2²)/2) and density (wsum: W) and says whether there was one; wallFull is the rest lattice's
 * (wallTables, evaluated at d rather than read from the table); wallCover the diagonal.
 */
export function coverWgsl(): string {
  return /* wgsl */ `
fn coverGhost(xa: vec3<f32>, xb: vec3<f32>, pk: f32, wm: u32, present: ptr<function, array<f32, 6>>, wsum: ptr<function, array<f32, 6>>) -> bool {
  let h = P.hv;
  var found = false;
  for (var m = wm; m != 0u; m = m & (m - 1u)) {
    let f = firstTrailingBit(m);
    let axis = f >> 1u;
    let g = wallGhost(xa, xb, f);
    let g2 = dot(g, g);
    if (g2 >= h * h) { continue; }
    found = true;
    let t2 = g2 - g[axis] * g[axis];
    (*present)[f] += 0.5 * pk * pairF(g2, h) * t2;
    (*wsum)[f] += W(sqrt(g2) / h);
  }
  return found;
}
fn wallFull(d: f32, h: f32, s: f32) -> vec2<f32> {
  let m = i32(ceil(h / s));
  let r = 0.5 * s;
  var g = 0.0;
  var w = 0.0;
  for (var b = -i32(ceil(d / s)); b <= m; b++) {
    let p = d + s * f32(b);
    var layer = 1.0;
    if (b < 0) { layer = min(1.0, p / r); }
    if (!(layer > 0.0)) { continue; }
    let xn = d + p;
    if (xn >= h) { break; }
    for (var i = -m; i <= m; i++) { for (var k = -m; k <= m; k++) {
      let t2 = s * s * f32(i * i + k * k);
      let r2 = t2 + xn * xn;
      if (!(r2 < h * h)) { continue; }
      g += layer * pairF(r2, h) * 0.5 * t2;
      w += layer * W(sqrt(r2) / h);
    }}
  }
  return vec2<f32>(g, w);
}
fn wallCover(xa: vec3<f32>, k: f32, present: ptr<function, array<f32, 6>>, wsum: ptr<function, array<f32, 6>>) -> vec3<f32> {
  let h = P.hv;
  var wd = vec3<f32>(0.0);
  for (var f = 0u; f < 6u; f++) {
    if ((P.walls & P.sticky & (1u << f)) == 0u) { continue; }
    let axis = f >> 1u;
    let d = abs(xa[axis] - wallPlane(f));
    if (!(d < h)) { continue; }
    let lat = wallFull(d, h, 2.0 * P.r);
    let full = k * lat.x;
    if (!(full > (*present)[f]) || !(lat.y > 0.0)) { continue; }
    let cut = (${COVER_FULL} - (*wsum)[f] / lat.y) / ${COVER_FULL - COVER_CUT};
    if (!(cut > 0.0)) { continue; }
    let missing = min(cut, 1.0) * (full - (*present)[f]);
    var add = vec3<f32>(2.0 * missing);
    add[axis] = 0.0;
    wd += add;
  }
  return wd;
}`;
}

