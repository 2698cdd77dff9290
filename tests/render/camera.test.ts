/**
 * The orbit camera's framing (src/render/camera.ts): after fit, every corner of the box projects
 * inside the viewport (within the asked fill, for wide and tall viewports), at least one corner
 * touches that limit (the box is framed, not lost in the distance), and the eye is outside it.
 */
import { describe, expect, it } from 'vitest';
import { OrbitCamera } from '../../src/render/camera.ts';

function corners(min: number[], max: number[]): number[][] {
  return Array.from({ length: 8 }, (_, c) => [c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]]);
}

/** Normalized device coordinates of a point. */
function ndc(m: Float32Array, p: number[]): [number, number] {
  const x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
  const y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
  const w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
  return [x / w, y / w];
}

describe('camera framing', () => {
  const boxes: [string, number[], number[]][] = [
    ['gel-fan', [-0.26, -0.033, -0.26], [0.26, 0.282, 0.26]],
    ['smoke plume (tall)', [-0.3, 0, -0.1], [0.3, 0.8, 0.1]],
    ['honey melt (flat and long)', [0, 0, 0], [0.4, 0.12, 0.04]],
    ['dam break', [0, 0, 0], [1, 1, 1]],
  ];
  for (const aspect of [0.7, 1.5, 2.2]) {
    for (const [name, min, max] of boxes) {
      it(`frames ${name} in a viewport ${aspect} wide per unit of height`, () => {
        const cam = new OrbitCamera();
        cam.yaw = 2;
        cam.pitch = -1; // fit starts from the default direction whatever came before
        cam.fit(min, max, aspect, 0.85);
        const m = cam.matrices(aspect, 600).viewProjection;
        let most = 0;
        for (const p of corners(min, max)) {
          const [x, y] = ndc(m, p);
          expect(Math.abs(x)).toBeLessThanOrEqual(0.85 + 1e-4);
          expect(Math.abs(y)).toBeLessThanOrEqual(0.85 + 1e-4);
          most = Math.max(most, Math.abs(x), Math.abs(y));
        }
        expect(most).toBeGreaterThan(0.84);
        expect(cam.eyeOutside(min, max)).toBe(true);
        expect(cam.pitch).toBeGreaterThan(0); // looking down on the scene
      });
    }
  }
});
