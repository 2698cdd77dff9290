/**
 * Names of per-frame files, shared by `viscid run` (src/cli) and the app's exports (src/app), so
 * that a sequence written by either is the same to Blender and Houdini: `mesh-0052.obj`, the frame
 * number zero-padded to at least four digits (Houdini's `$F4`).
 */

/** Frames a whole run of a scene takes: duration × fps, rounded up, at least one. */
export function sceneFrameCount(duration: number, fps: number): number {
  return Math.max(1, Math.ceil(duration * fps - 1e-9));
}

/** Digits of the frame numbers of a run of `frames` frames (at least 4, Houdini's $F4). */
export function framePadding(frames: number): number {
  return Math.max(4, String(frames).length);
}

/** `mesh-0001.obj` */
export function frameFileName(stem: string, frame: number, padding: number, extension: string): string {
  return `${stem}-${String(frame).padStart(padding, '0')}.${extension}`;
}
