/**
 * The GPU state of one simulation shown: its scene (palette, solids, domain box) and the newest
 * frame's buffers (points, surface mesh, debug lines, smoke), reused from frame to frame.
 */
import type { Regl, Buffer, Elements } from 'regl';

export interface SolidGeometry {
  color: [number, number, number];
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

export interface ViewScene {
  /** Linear RGB per material index; liquids and solids alike. */
  palette: [number, number, number][];
  /** Colour of the first liquid, linear RGB: the surface colour when the mesh has none. */
  liquidColor: [number, number, number];
  particleRadius: number;
  domain: { min: ArrayLike<number>; max: ArrayLike<number> } | null;
  solids: SolidGeometry[];
}

export interface ViewFrame {
  points?: { count: number; positions: Float32Array; aux: Float32Array } | null;
  mesh?: { positions: Float32Array; normals: Float32Array; colors?: Float32Array; indices: Uint32Array; frontFace?: 'ccw' | 'cw' } | null;
  transforms?: Float32Array;
  velocityLines?: Float32Array | null;
  cellLines?: Float32Array | null;
  smoke?: { count: number; positions: Float32Array; density: Float32Array; cellSize: number } | null;
  maxSpeed?: number;
}

interface SolidBuffers { color: [number, number, number]; positions: Buffer; normals: Buffer; elements: Elements }

/** GPU state of one simulation view. */
export class View {
  scene: ViewScene | null = null;
  pointCount = 0;
  meshElements = 0;
  hasMeshColors = false;
  frontFace: 'ccw' | 'cw' = 'ccw';
  velocityCount = 0;
  cellCount = 0;
  smokeCount = 0;
  smokeSize = 0.02;
  transforms: Float32Array = new Float32Array(0);
  maxSpeed = 1;
  readonly pointPositions: Buffer;
  readonly pointAux: Buffer;
  readonly meshPositions: Buffer;
  readonly meshNormals: Buffer;
  readonly meshColors: Buffer;
  readonly meshElementsBuffer: Elements;
  readonly velocity: Buffer;
  readonly cells: Buffer;
  readonly domain: Buffer;
  readonly smokePositions: Buffer;
  readonly smokeDensity: Buffer;
  /** Zeros for meshes without colours, reused while big enough. */
  private zeros = new Float32Array(0);
  solids: SolidBuffers[] = [];
  private destroyed = false;

  constructor(private readonly regl: Regl) {
    this.pointPositions = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.pointAux = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.meshPositions = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.meshNormals = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.meshColors = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.meshElementsBuffer = regl.elements({ usage: 'dynamic', type: 'uint32', primitive: 'triangles', data: new Uint32Array(3) });
    this.velocity = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.cells = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.domain = regl.buffer({ usage: 'static', type: 'float', length: 12 });
    this.smokePositions = regl.buffer({ usage: 'dynamic', type: 'float', length: 12 });
    this.smokeDensity = regl.buffer({ usage: 'dynamic', type: 'float', length: 4 });
  }

  setScene(scene: ViewScene): void {
    if (this.destroyed) return;
    this.scene = scene;
    this.destroySolids();
    this.solids = scene.solids.map((s) => ({
      color: s.color,
      positions: this.regl.buffer(s.positions),
      normals: this.regl.buffer(s.normals),
      elements: this.regl.elements({ data: s.indices, type: 'uint32', primitive: 'triangles' }),
    }));
    this.transforms = new Float32Array(0);
    this.pointCount = 0;
    this.meshElements = 0;
    this.velocityCount = 0;
    this.cellCount = 0;
    this.smokeCount = 0;
    if (scene.domain) this.domain({ data: boxLines(scene.domain.min, scene.domain.max) });
  }

  setFrame(frame: ViewFrame): void {
    if (this.destroyed) return;
    if (frame.points !== undefined) {
      const p = frame.points;
      this.pointCount = p ? p.count : 0;
      if (p && p.count > 0) {
        this.pointPositions({ data: p.positions });
        this.pointAux({ data: p.aux });
      }
    }
    if (frame.mesh !== undefined) {
      const m = frame.mesh;
      this.meshElements = m ? m.indices.length : 0;
      if (m && m.indices.length > 0) {
        this.meshPositions({ data: m.positions });
        this.meshNormals({ data: m.normals });
        this.frontFace = m.frontFace ?? 'ccw';
        this.hasMeshColors = !!m.colors && m.colors.length === m.positions.length;
        if (this.hasMeshColors) this.meshColors({ data: m.colors! });
        else if (this.zeros.length < m.positions.length) {
          // The shader ignores these (useVertexColor 0); upload zeros only when the mesh outgrows them.
          this.zeros = new Float32Array(Math.ceil(m.positions.length * 1.5));
          this.meshColors({ data: this.zeros });
        }
        this.meshElementsBuffer({ data: m.indices, type: 'uint32', primitive: 'triangles' });
      }
    }
    if (frame.transforms) this.transforms = frame.transforms;
    if (frame.velocityLines !== undefined) {
      const v = frame.velocityLines;
      this.velocityCount = v ? v.length / 3 : 0;
      if (v && v.length > 0) this.velocity({ data: v });
    }
    if (frame.cellLines !== undefined) {
      const c = frame.cellLines;
      this.cellCount = c ? c.length / 3 : 0;
      if (c && c.length > 0) this.cells({ data: c });
    }
    if (frame.smoke !== undefined) {
      const sm = frame.smoke;
      this.smokeCount = sm ? sm.count : 0;
      if (sm && sm.count > 0) {
        this.smokePositions({ data: sm.positions });
        this.smokeDensity({ data: sm.density });
        this.smokeSize = sm.cellSize;
      }
    }
    if (frame.maxSpeed !== undefined && frame.maxSpeed > 0) this.maxSpeed = frame.maxSpeed;
  }

  /** Frees the view's GPU buffers; the view draws nothing afterwards. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.destroySolids();
    for (const b of [this.pointPositions, this.pointAux, this.meshPositions, this.meshNormals, this.meshColors, this.velocity, this.cells, this.domain, this.smokePositions, this.smokeDensity]) b.destroy();
    this.meshElementsBuffer.destroy();
    this.scene = null;
    this.pointCount = this.meshElements = this.velocityCount = this.cellCount = this.smokeCount = 0;
  }

  private destroySolids(): void {
    for (const s of this.solids) {
      s.positions.destroy();
      s.normals.destroy();
      s.elements.destroy();
    }
    this.solids = [];
  }
}

function boxLines(min: ArrayLike<number>, max: ArrayLike<number>): Float32Array {
  const c = (i: number) => [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]];
  const edges = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];
  const out: number[] = [];
  for (const [a, b] of edges) out.push(...c(a), ...c(b));
  return new Float32Array(out);
}

