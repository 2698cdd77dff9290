/**
 * The standard stages of a grid time step, registered by name in the order of Cline et al. 2005,
 * Figure 3 (with §5 sources before the grid update and §6 objects before the pressure), plus the
 * spout and sink helpers. `step.ts` imports this module, so the stages exist whenever a
 * GridSimulation does.
 */
import { SimulationError } from '../api.ts';
import { advectVelocity } from './advect.ts';
import { applySolidVelocities } from './boundary.ts';
import { extrapolateVelocity } from './extrapolate.ts';
import { applySpoutVelocity, spoutActive, spoutBounds, spoutDistance, type Spout } from './sources.ts';
import { insertStage } from './stages.ts';
import { FACE_ACTIVE as FACE_ACTIVE_ } from './store.ts';
import type { GridSimulation } from './step.ts';

// Imported bindings are getters under tsx's module transform (see store.ts users).
const FACE_ACTIVE = FACE_ACTIVE_;

const levelSetOnly = (sim: GridSimulation) => sim.useLevelSet;

insertStage({
  name: 'sources',
  enabled: (sim) => sim.blobs.length > 0 || sim.spouts.length > 0,
  run(sim, dt) {
    for (const blob of sim.blobs) {
      if (blob.done || sim.time + dt < blob.body.start) continue;
      blob.done = true;
      const mat = sim.scene.materials[blob.body.material];
      const temp = mat.kind === 'liquid' ? (mat.grid.temperature?.initial ?? sim.ambientTemperature) : sim.ambientTemperature;
      sim.addLiquid(blob.shape, blob.body.velocity, temp, blob.material);
    }
    for (const sp of sim.spouts) emitSpout(sim, sp, dt);
  },
});
insertStage({
  name: 'grid',
  run(sim) {
    sim.solids.setTime(sim.time);
    sim.updateGrid();
    applySolidVelocities(sim.store, sim.d);
    extrapolateVelocity(sim.store, sim.layers);
    applySolidVelocities(sim.store, sim.d);
  },
});
insertStage({
  name: 'redistance',
  enabled: levelSetOnly,
  run(sim) {
    sim.levelSet.redistance(sim.store, sim.d.h, sim.band, sim.exactPhi ?? undefined);
    sim.exactPhi = null;
  },
});
insertStage({
  name: 'advection',
  run(sim, dt) {
    advectVelocity(sim.store, sim.d, dt);
    applySolidVelocities(sim.store, sim.d);
    sim.checkVelocity();
  },
});
insertStage({ name: 'temperature', enabled: (sim) => sim.temperatureLaw !== null, run: (sim, dt) => sim.updateTemperature(dt) });
insertStage({
  name: 'forces',
  run(sim, dt) {
    const s = sim.store, g = sim.scene.gravity;
    for (let a = 0; a < 3; a++) {
      const dv = dt * g[a];
      if (dv === 0) continue;
      const ua = s.u[a];
      for (let c = 0; c < s.count; c++) if (s.face[3 * c + a] === FACE_ACTIVE) ua[c] += dv;
    }
    for (const sp of sim.spouts) if (spoutActive(sp, sim.time)) applySpoutVelocity(s, sim.d, sp);
  },
});
// Viscosity acts on a divergence-free field: projecting once before it keeps the no-slip walls
// from shearing the hydrostatic response to gravity (a tank at rest stays at rest), and the final
// projection below removes what viscosity adds. The first solve starts from the last pressure.
insertStage({
  name: 'pressure-pre',
  enabled: (sim) => sim.viscous(),
  run(sim) {
    const g = sim.scene.grid;
    const r = sim.pressure.project(sim.store, g.tolerance, g.maxIterations, true);
    sim.count('pressureIterations', r.iterations);
    if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`pressure solve failed at step ${sim.steps}`, 'pressure-pre', sim.frame);
  },
});
insertStage({
  name: 'viscosity',
  enabled: (sim) => sim.viscous(),
  run(sim, dt) {
    const g = sim.scene.grid;
    if (sim.viscosityModel === 'explicit') {
      sim.viscosity.logNu = null;
      sim.viscosity.explicit(sim.store, sim.d, sim.nu, dt);
    } else {
      if (sim.viscosityModel === 'implicit') sim.viscosity.logNu = null;
      const r = sim.viscosity.implicit(sim.store, sim.d, sim.nu, dt, g.tolerance, g.maxIterations);
      sim.count('viscosityIterations', sim.viscosity.iterations);
      if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`viscosity solve failed at step ${sim.steps}`, 'viscosity', sim.frame);
    }
    applySolidVelocities(sim.store, sim.d);
    sim.checkVelocity();
  },
});
insertStage({ name: 'objects', enabled: (sim) => sim.solids.moving, run: (sim) => sim.count('pushedCells', sim.solids.pushNormals(sim.store)) });
insertStage({
  name: 'pressure',
  run(sim) {
    const g = sim.scene.grid;
    const r = sim.pressure.project(sim.store, g.tolerance, g.maxIterations, !sim.viscous());
    sim.count('pressureIterations', r.iterations);
    if (!r.converged) sim.count('pressureUnconverged', 1);
    if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`pressure solve failed at step ${sim.steps}`, 'pressure', sim.frame);
    sim.checkVelocity();
  },
});
insertStage({ name: 'extrapolation', run: (sim) => extrapolateVelocity(sim.store, sim.layers) });
insertStage({ name: 'solids', run: (sim) => applySolidVelocities(sim.store, sim.d) });
insertStage({
  name: 'tracking',
  run(sim, dt) {
    if (sim.useLevelSet) sim.count('levelsetSubsteps', sim.levelSet.advect(sim.store, sim.d, dt));
    else sim.count('markersRemoved', sim.markers.move(sim.store, sim.d, dt));
    applySinks(sim, dt);
  },
});

function emitSpout(sim: GridSimulation, sp: Spout, dt: number): void {
  const t1 = sim.time + dt;
  if (!(t1 > sp.source.start) || sim.time >= sp.end) return;
  const speed = sp.source.speed, h = sim.d.h;
  const mpc = Math.max(1, Math.round(Math.cbrt(sim.scene.grid.markersPerCell)));
  const spacing = h / mpc;
  // Layers emitted during this step, each already travelled (t1 − t_emit) s.
  const interval = spacing / speed;
  while (sp.next < Math.min(t1, sp.end) - 1e-9 * interval) {
    const travelled = Math.max(0, (t1 - sp.next) * speed);
    const length = Math.max(spacing, travelled);
    const sdf = (x: number, y: number, z: number) => spoutDistance(sp, length, x, y, z);
    const b = spoutBounds(sp, length);
    const velocity: [number, number, number] = [speed * sp.normal[0], speed * sp.normal[1], speed * sp.normal[2]];
    if (sim.useLevelSet) {
      // The column in front of the face (what the spout has emitted so far, at most three cells
      // long, so that φ inside is a resolvable distance) holds liquid moving at s·n; the level set
      // carries it on at the spout's rate.
      const len = Math.min(3 * h, Math.max(h, speed * (t1 - sp.source.start)));
      const column = (x: number, y: number, z: number) => spoutDistance(sp, len, x, y, z);
      sim.addLiquid({ type: 'box', sdf: column, bounds: spoutBounds(sp, len), volume: 0, area: 0 }, velocity, sim.ambientTemperature, sp.material);
      sp.next = Math.min(t1, sp.end);
      break;
    }
    // One marker layer on the face, moved forward by the distance already travelled.
    const [e1, e2] = sp.basis;
    const src = sp.source;
    const r = src.shape === 'disk' ? src.radius : Math.max(src.size[0], src.size[1]) / 2;
    const m = Math.ceil(r / spacing);
    for (let a = -m; a <= m; a++) {
      for (let c = -m; c <= m; c++) {
        const pa = (a + 0.5) * spacing, pc = (c + 0.5) * spacing;
        const inside = src.shape === 'disk' ? Math.hypot(pa, pc) <= src.radius : Math.abs(pa) <= src.size[0] / 2 && Math.abs(pc) <= src.size[1] / 2;
        if (!inside) continue;
        const x = src.center[0] + pa * e1[0] + pc * e2[0] + travelled * sp.normal[0];
        const y = src.center[1] + pa * e1[1] + pc * e2[1] + travelled * sp.normal[1];
        const z = src.center[2] + pa * e1[2] + pc * e2[2] + travelled * sp.normal[2];
        sim.markers.add(x, y, z, sp.material);
      }
    }
    // Emission times start + n·d/s, computed (not accumulated) so that no layer is gained to round-off.
    sp.next = sp.source.start + (Math.round((sp.next - sp.source.start) / interval) + 1) * interval;
  }
}

function applySinks(sim: GridSimulation, dt: number): void {
  const t = sim.time + dt;
  for (const sink of sim.sinks) {
    if (t < sink.start || sim.time > sink.end) continue;
    if (sim.useLevelSet) {
      const s = sim.store, d = sim.d, h = d.h;
      for (let c = 0; c < s.count; c++) {
        const sd = sink.shape.sdf(d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5));
        if (-sd > s.phi[c]) s.phi[c] = -sd;
      }
    } else sim.count('markersSunk', sim.markers.filter((x, y, z) => sink.shape.sdf(x, y, z) >= 0));
  }
}
