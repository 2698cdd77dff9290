/**
 * A rest-pose mesh of a solid for `solids()`: its signed distance sampled at half the cell size and
 * polygonized by the shared level-set surface builder (planes are drawn as a square of their extent).
 */
import type { Mesh } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import type { CompiledShape } from '../scene/shapes.ts';
import { levelSetSurface } from '../surface/index.ts';

export function solidMesh(shape: CompiledShape, cellSize: number, scene: Scene): Mesh {
  const b = shape.bounds;
  const min = [0, 1, 2].map((a) => (Number.isFinite(b.min[a]) ? b.min[a] : -1));
  const max = [0, 1, 2].map((a) => (Number.isFinite(b.max[a]) ? b.max[a] : 1));
  const span = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const h = Math.max(cellSize / 2, span / 96);
  const pad = 2 * h;
  const dims: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) dims[a] = Math.max(2, Math.ceil((max[a] - min[a] + 2 * pad) / h) + 1);
  const phi = new Float64Array(dims[0] * dims[1] * dims[2]);
  const o = [min[0] - pad, min[1] - pad, min[2] - pad];
  for (let k = 0; k < dims[2]; k++) {
    for (let j = 0; j < dims[1]; j++) {
      for (let i = 0; i < dims[0]; i++) {
        phi[i + dims[0] * (j + dims[1] * k)] = shape.sdf(o[0] + h * i, o[1] + h * j, o[2] + h * k);
      }
    }
  }
  return levelSetSurface({ origin: [o[0], o[1], o[2]], cellSize: h, dims, phi }, { ...scene.output, resolution: 2, colors: false });
}
