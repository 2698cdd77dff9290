/**
 * Which scenes the app tries on WebGPU (src/app/gpu-backend.ts gpuRefusal), in Node: the particle
 * engine only, not when the CPU is chosen, and not for a scene the backend does not run, whose
 * JSON paths the overlay's line names once each. The GPU itself is tried in the browser test
 * (tests/e2e/webgpu.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { gpuRefusal } from '../../src/app/gpu-backend.ts';

const text = readFileSync(new URL('../../scenes/gpu-dam-break.json', import.meta.url), 'utf8');
const gpuScene = parseScene(text);

describe('gpuRefusal', () => {
  it('tries the GPU scene on WebGPU in the particle engine, asked for or by default', () => {
    expect(gpuRefusal(gpuScene, 'particle', 'auto')).toBeNull();
    expect(gpuRefusal(gpuScene, 'particle', 'webgpu')).toBeNull();
  });

  it('tries the gel fan and the cup pour on WebGPU as shipped, their thin pull included (src/gpu/thin-pull.ts)', () => {
    for (const name of ['gel-fan.json', 'cup-pour.json']) {
      const scene = parseScene(readFileSync(new URL(`../../scenes/${name}`, import.meta.url), 'utf8'));
      expect(scene.particle.thinPull).toBeGreaterThan(0);
      expect(gpuRefusal(scene, 'particle', 'auto')).toBeNull();
    }
  });

  it('keeps the CPU engine when it is chosen, and for the grid engine', () => {
    expect(gpuRefusal(gpuScene, 'particle', 'cpu')).toBe('the CPU engine was chosen (bit-exact runs)');
    expect(gpuRefusal(gpuScene, 'grid', 'auto')).toBe('the WebGPU backend runs the particle engine');
  });

  it('names what the backend does not run, each path once (a moving boundary is one path for six faces)', () => {
    const scene = JSON.parse(text);
    scene.domain.boundary = { type: 'moving', velocity: [0.1, 0, 0] };
    scene.particle.densitySolver = 'steele';
    expect(gpuRefusal(parseScene(scene), 'particle', 'auto')).toBe('WebGPU cannot run this scene yet (particle.densitySolver, domain.boundary)');
  });
});
