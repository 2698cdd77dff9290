/**
 * Bytes of the files the encoders write, from a mesh's triangle count or a point count: what
 * `viscid info` and `viscid run` state as the disk a run will take. Binary PLY and GLB follow
 * from their layouts (ply.ts, gltf.ts; a closed surface has about half as many vertices as
 * triangles); OBJ and VTK are text, measured on the honey drop's frames (BENCHMARKS.md, "Output
 * formats").
 */
export type MeshFileFormat = 'obj' | 'ply' | 'glb';
export type PointsFileFormat = 'vtk' | 'ply';

/** Bytes a triangle, vertices included (two triangles a vertex). */
export function meshBytesPerTriangle(format: MeshFileFormat, colors: boolean): number {
  switch (format) {
    case 'ply':
      return 13 + (12 + 12 + (colors ? 3 : 0)) / 2; // uchar count + 3 uint; float xyz, normal, uchar rgb
    case 'glb':
      return 12 + (12 + 12 + (colors ? 12 : 0)) / 2; // uint32 indices; float32 POSITION, NORMAL, COLOR_0
    case 'obj':
      return colors ? 91 : 80; // honey drop, 9 significant digits: 90.7 bytes a triangle with colours
  }
}

/** Bytes of one mesh file of `triangles` triangles. */
export function meshFileBytes(format: MeshFileFormat, triangles: number, colors: boolean): number {
  const header = format === 'glb' ? 1500 : 250;
  return header + triangles * meshBytesPerTriangle(format, colors);
}

/** Bytes of one point file of `count` points (with densities, as the particle engine gives). */
export function pointsFileBytes(format: PointsFileFormat, count: number): number {
  return format === 'ply' ? 300 + 30 * count : 200 + 87 * count;
}
