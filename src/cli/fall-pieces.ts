/**
 * How much a liquid body's fall splits the particle engine's sub-timesteps over a run, for
 * `viscid info`'s cost (cost.ts predictFrameCost).
 */
import { estimateScene, type Scene } from '../index.ts';
import { compileShape } from '../scene/shapes.ts';

/**
 * The mean over the run of the pieces a sub-timestep is split into because the liquid moves fast
 * (step.ts: a move may carry a particle at most particle.maxMove radii, so a sub-timestep of the
 * fastest speed v takes about v δt / (moves · maxMove · r) pieces; counted here as that ratio, not
 * rounded up, over the frames of the run). The speed is the liquid bodies' fall: from rest (or
 * their initial speed) at g from the start, to √(v₀² + 2 g H) at the end of a fall of H from a
 * body's bottom to what catches it — the top of the highest static solid or plane under its
 * footprint, or else a sink's top under it, or else the scene's floor. A driven solid holds no
 * liquid (gel-fan's spinning fan sheds its gel into the sink under it: 18–27 sub-timesteps a frame
 * from 0.13 s where the scene asks 9). Where the fall ends in a sink, liquid keeps falling into it
 * to the end of the run at that speed; where it ends on a floor or a solid, the speed is the
 * fall's only until it lands. Spouts' streams are not counted (their particles' steps are
 * measured at their own speed: honey-coil, honey-on-spinner). 1 where no liquid body falls fast
 * enough to split a sub-timestep (most scenes: the split's speed is 1.4–4.3 m/s at their
 * settings). bench/run-cpu.ts measured gel-fan's whole run: 2.12 pieces on average, 2.06 here.
 */
export function fallPieces(scene: Scene): number {
  const P = scene.particle, dt = 1 / (scene.fps * P.substeps), g = Math.hypot(...scene.gravity);
  const T = scene.duration, vPiece = (P.moves * P.maxMove * P.radius) / dt;
  if (!(g > 0) || !(T > 0) || !(vPiece > 0)) return 1;
  let worst = 1;
  try {
    const shapes = scene.bodies.map((b) => (scene.materials[b.material].kind === 'solid' ? compileShape(b.shape, scene.assets.meshes).bounds : null));
    const sinkTops = scene.sinks.map((k) => compileShape(k.shape, scene.assets.meshes).bounds);
    const floor = estimateScene(scene).gridBounds.min[1];
    const over = (a: { min: readonly number[]; max: readonly number[] }, b: { min: readonly number[]; max: readonly number[] }) =>
      [0, 2].every((i) => a.min[i] < b.max[i] && a.max[i] > b.min[i]);
    scene.bodies.forEach((body) => {
      if (scene.materials[body.material].kind !== 'liquid' || body.start > 0) return;
      const liquid = compileShape(body.shape, scene.assets.meshes).bounds, bottom = liquid.min[1];
      let catchAt = -Infinity, intoSink = false;
      scene.bodies.forEach((b, i) => {
        const box = shapes[i];
        if (!box || b.motion.type !== 'static' || box.max[1] > bottom || !over(box, liquid)) return;
        catchAt = Math.max(catchAt, box.max[1]);
      });
      if (catchAt === -Infinity) {
        for (const k of sinkTops) if (k.max[1] <= bottom && over(k, liquid) && k.max[1] > catchAt) { catchAt = k.max[1]; intoSink = true; }
      }
      if (catchAt === -Infinity) catchAt = floor;
      const v0 = Math.hypot(...body.velocity), vMax = Math.sqrt(v0 * v0 + 2 * g * Math.max(0, bottom - catchAt));
      if (!(vMax > vPiece)) return;
      // Pieces max(1, v / vPiece) with v = v₀ + g t up to vMax at tb, then vMax to T (into a sink) or 1 (landed).
      const ta = Math.max(0, (vPiece - v0) / g), tb = Math.max(ta, (vMax - v0) / g);
      const end = Math.min(T, tb), ramp = end > ta ? ((v0 + g * (ta + end) / 2) * (end - ta)) / vPiece : 0;
      const after = intoSink ? Math.max(0, T - tb) * (vMax / vPiece) : Math.max(0, T - tb);
      worst = Math.max(worst, (Math.min(ta, T) + ramp + after) / T);
    });
  } catch {
    return 1; // an unreadable shape is refused elsewhere
  }
  return worst;
}
