/**
 * Checkpoints of the grid engine: the hashed grid's cells and fields, the tracker's points and
 * state, the sources' progress and the extensions', so that a restored run continues bit for bit.
 */
import type { Scene } from '../scene/scene.ts';
import { startCheckpoint } from '../engines.ts';
import { CheckpointError, type CheckpointReader } from '../io/checkpoint.ts';
import { restoreExtensions, saveExtensions } from './extensions.ts';
import type { GridSimulation } from './step.ts';
import { GridStore } from './store.ts';
import { classifyFaces } from './update-grid.ts';

export function saveGrid(sim: GridSimulation, scene: Scene): Uint8Array {
  const s = sim.store, n = s.count;
  const w = startCheckpoint('grid', scene);
  w.scalar('time', sim.time).scalar('frame', sim.frame).scalar('steps', sim.steps).scalar('cells', n);
  w.array('ci', s.ci.slice(0, n)).array('cj', s.cj.slice(0, n)).array('ck', s.ck.slice(0, n));
  w.array('type', s.type.slice(0, n)).array('wall', s.wall.slice(0, n)).array('layer', s.layer.slice(0, n));
  for (let a = 0; a < 3; a++) {
    w.array(`u${a}`, s.u[a].slice(0, n));
    w.array(`solidVel${a}`, s.solidVel[a].slice(0, n));
  }
  w.array('phi', s.phi.slice(0, n)).array('temperature', s.temperature.slice(0, n)).array('pressure', s.pressure.slice(0, n));
  w.array('markers', sim.markers.pos.slice(0, 3 * sim.markers.count)).array('markerMaterial', sim.markers.material.slice(0, sim.markers.count));
  w.array('blobsDone', Uint8Array.from(sim.blobs.map((b) => (b.done ? 1 : 0))));
  w.array('spoutNext', Float64Array.from(sim.spouts.map((sp) => sp.next)));
  w.array('spoutEmitted', Float64Array.from(sim.spouts.flatMap((sp) => [sp.emitted, sp.lastAdded])));
  if (sim.spouts.length > 0) w.array('spoutFlow', Float64Array.from(sim.spouts.flatMap((sp) => [sp.flowAdded, sp.flowAsked, sp.seen, sp.speedScale])));
  sim.tracker.save(w);
  saveExtensions(sim, w);
  return w.finish();
}

export function restoreGrid(sim: GridSimulation, r: CheckpointReader): void {
  // Every value is validated as input (io/checkpoint.ts): counts against the arrays' lengths.
  sim.time = r.finite('time', 0);
  sim.frame = r.index('frame');
  sim.steps = r.index('steps', 0, Number.MAX_SAFE_INTEGER);
  const n = r.index('cells', 0, sim.scene.limits.maxCells);
  const ci = r.array('ci', Int32Array, n), cj = r.array('cj', Int32Array, n), ck = r.array('ck', Int32Array, n);
  const type = r.array('type', Uint8Array, n), wall = r.array('wall', Uint8Array, n), layer = r.array('layer', Int32Array, n);
  const u = [0, 1, 2].map((a) => r.finiteArray(`u${a}`, Float64Array, n)), solidVel = [0, 1, 2].map((a) => r.finiteArray(`solidVel${a}`, Float64Array, n));
  const phi = r.array('phi', Float64Array, n), temperature = r.array('temperature', Float64Array, n), pressure = r.array('pressure', Float64Array, n);
  const s = new GridStore(n, sim.runner);
  for (let c = 0; c < n; c++) s.insert(ci[c], cj[c], ck[c]);
  if (s.count !== n) throw new CheckpointError(`checkpoint lists ${n - s.count} grid cells twice`);
  s.type.set(type);
  s.wall.set(wall);
  s.layer.set(layer);
  for (let a = 0; a < 3; a++) {
    s.u[a].set(u[a]);
    s.solidVel[a].set(solidVel[a]);
  }
  s.phi.set(phi);
  s.temperature.set(temperature);
  s.pressure.set(pressure);
  s.linkNeighbors();
  classifyFaces(s);
  sim.store = s;
  const mat = r.indices('markerMaterial', Uint16Array, undefined, 0, Math.max(0, sim.scene.materialNames.length - 1));
  const pos = r.finiteArray('markers', Float64Array, 3 * mat.length);
  sim.markers.count = 0;
  for (let q = 0; q < mat.length; q++) sim.markers.add(pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], mat[q]);
  const done = r.array('blobsDone', Uint8Array, sim.blobs.length);
  sim.blobs.forEach((b, i) => (b.done = done[i] === 1));
  const next = r.array('spoutNext', Float64Array, sim.spouts.length);
  sim.spouts.forEach((sp, i) => (sp.next = next[i]));
  if (r.has('spoutEmitted')) {
    const emitted = r.array('spoutEmitted', Float64Array);
    sim.spouts.forEach((sp, i) => {
      sp.emitted = emitted[2 * i];
      sp.lastAdded = emitted[2 * i + 1];
    });
  }
  // The flow ratio's sums (none in older checkpoints: the ratio starts again from 1).
  if (r.has('spoutFlow')) {
    const flow = r.array('spoutFlow', Float64Array, 4 * sim.spouts.length);
    sim.spouts.forEach((sp, i) => {
      sp.flowAdded = flow[4 * i];
      sp.flowAsked = flow[4 * i + 1];
      sp.seen = flow[4 * i + 2];
      sp.speedScale = flow[4 * i + 3];
    });
  }
  sim.tracker.restore(sim, r);
  restoreExtensions(sim, r);
  sim.solids.setTime(sim.time);
}
