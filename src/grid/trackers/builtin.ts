/**
 * The surface trackers that ship with the grid engine, registered by name (tracker.ts), and the
 * tracker a scene asks for: `grid.tracking`, wrapped in a height field when `grid.heightField`
 * is set (not for smoke, which tracks no surface).
 */
import type { Scene } from '../../scene/scene.ts';
import './markers.ts';
import './levelset.ts';
import './particle-levelset.ts';
import './height-field.ts';
import { createTracker, type SurfaceTracker } from './tracker.ts';

export function trackerForScene(scene: Scene): SurfaceTracker {
  const tracker = createTracker(scene.grid.tracking, scene);
  return scene.grid.heightField && !scene.grid.smoke ? createTracker('height-field', scene, tracker) : tracker;
}
