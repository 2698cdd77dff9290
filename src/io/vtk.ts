/**
 * Legacy VTK (ASCII, POLYDATA) of fluid points for ParaView and VisIt: one vertex cell per point,
 * POINT_DATA velocity (vectors), material (int scalars) and density (ρ/ρ0, float scalars) when the
 * engine provides it.
 */
import type { FluidPoints } from '../types/geometry.ts';
import { f32 } from './obj.ts';

export function toVTK(points: FluidPoints, title = 'viscid fluid points'): string {
  const n = points.count;
  const p = points.positions, v = points.velocities;
  const lines: string[] = ['# vtk DataFile Version 3.0', title.replace(/[\r\n]+/g, ' ').slice(0, 255), 'ASCII', 'DATASET POLYDATA', `POINTS ${n} float`];
  for (let i = 0; i < n; i++) lines.push(`${f32(p[3 * i])} ${f32(p[3 * i + 1])} ${f32(p[3 * i + 2])}`);
  lines.push(`VERTICES ${n} ${2 * n}`);
  for (let i = 0; i < n; i++) lines.push(`1 ${i}`);
  lines.push(`POINT_DATA ${n}`, 'VECTORS velocity float');
  for (let i = 0; i < n; i++) lines.push(`${f32(v[3 * i])} ${f32(v[3 * i + 1])} ${f32(v[3 * i + 2])}`);
  lines.push('SCALARS material int 1', 'LOOKUP_TABLE default');
  for (let i = 0; i < n; i++) lines.push(String(points.materials[i]));
  if (points.densities && points.densities.length >= n) {
    lines.push('SCALARS density float 1', 'LOOKUP_TABLE default');
    for (let i = 0; i < n; i++) lines.push(f32(points.densities[i]));
  }
  lines.push('');
  return lines.join('\n');
}
