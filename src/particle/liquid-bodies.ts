/**
 * The liquid's bodies: the particles connected through the contact lists (ctx.contacts, the pairs
 * closer than CONTACT_REACH radii that adhesion.ts lists each sub-timestep), found by union–find
 * (path halving, the smaller index the root). Each particle is labelled with its body's smallest
 * index. The labels hold from adhesion's listing until the lists are reset (density correction
 * lists its pairs in the same storage, ctx.densityPairs): over the viscosity stage and the moves.
 */
import type { StepContext } from './context.ts';

export class LiquidBodies {
  /** Per particle: its body's smallest index (a stage may mark a root's own entry, see markRoot). */
  root = new Int32Array(0);
  /** The contact lists' version and the liquid's count the labels are for. */
  version = -1;
  count = -1;
}

/** The labels of the present contact lists, found once per listing (ctx.bodies). */
export function liquidBodies(ctx: StepContext): Int32Array {
  const st = (ctx.bodies ??= new LiquidBodies());
  const n = ctx.liquid.count, list = ctx.contacts;
  if (st.version === list.version && st.count === n) return st.root;
  if (st.root.length < n) st.root = new Int32Array(Math.max(n, Math.ceil(1.125 * n)));
  const root = st.root, cs = list.start, cj = list.j;
  for (let i = 0; i < n; i++) root[i] = i;
  for (let i = 0; i < n; i++) {
    for (let e = cs[i], e1 = cs[i + 1]; e < e1; e++) {
      const a = find(root, i), b = find(root, cj[e]);
      if (a < b) root[b] = a;
      else if (b < a) root[a] = b;
    }
  }
  // Every link points to a smaller index, already flattened to its root.
  for (let i = 0; i < n; i++) root[i] = root[root[i]];
  st.version = list.version;
  st.count = n;
  return root;
}

/** The root of i's set, halving the path. */
function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    const up = parent[i];
    parent[i] = parent[up];
    i = up;
  }
  return i;
}
