import { describe, expect, it } from 'vitest';
import { groupByRegion } from '../../src/surface/regions.ts';

describe('groupByRegion', () => {
  it('groups particle indices by region (the surface builder meshes each region apart)', () => {
    const region = new Int32Array([0, 1, 0, 2, 1, 0, -1]);
    const { start, members } = groupByRegion(region, 7, 3);
    expect([...start]).toEqual([0, 3, 5, 6]);
    expect([...members]).toEqual([0, 2, 5, 1, 4, 3]);
  });
});
