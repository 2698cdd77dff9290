/**
 * Binary glTF 2.0 (GLB) of a mesh through @gltf-transform/core: POSITION, NORMAL, COLOR_0 (linear,
 * as glTF specifies), uint32 indices, and a PBR material that reads as honey (amber, glossy,
 * non-metallic; white when vertex colours carry the colour, since glTF multiplies the two).
 */
import { Document, WebIO } from '@gltf-transform/core';
import type { Mesh } from '../types/geometry.ts';

export interface GlbOptions {
  /** Name of the node, mesh and scene (default "viscid"). */
  name?: string;
}

/** Honey: linear RGB of #d99a1e. */
export const HONEY_BASE_COLOR: [number, number, number, number] = [0.693, 0.323, 0.013, 1];

export async function toGLB(mesh: Mesh, options: GlbOptions = {}): Promise<Uint8Array> {
  const name = options.name ?? 'viscid';
  const n = mesh.positions.length / 3;
  const doc = new Document();
  if (n === 0 || mesh.indices.length === 0) {
    // glTF accessors may not be empty: an empty surface is a scene with one node and no mesh.
    doc.createScene(name).addChild(doc.createNode(name));
    doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
    doc.getRoot().getAsset().generator = 'viscid';
    return new WebIO().writeBinary(doc);
  }
  doc.createBuffer('buffer');
  const hasColors = mesh.colors !== undefined && mesh.colors.length >= 3 * n;
  const material = doc
    .createMaterial('honey')
    .setBaseColorFactor(hasColors ? [1, 1, 1, 1] : HONEY_BASE_COLOR)
    .setMetallicFactor(0)
    .setRoughnessFactor(0.15)
    .setDoubleSided(false);
  const prim = doc
    .createPrimitive()
    .setMaterial(material)
    .setAttribute('POSITION', doc.createAccessor('position').setType('VEC3').setArray(new Float32Array(mesh.positions)))
    .setIndices(doc.createAccessor('indices').setType('SCALAR').setArray(new Uint32Array(mesh.indices)));
  if (mesh.normals.length >= 3 * n && n > 0) prim.setAttribute('NORMAL', doc.createAccessor('normal').setType('VEC3').setArray(new Float32Array(mesh.normals)));
  if (hasColors) prim.setAttribute('COLOR_0', doc.createAccessor('color').setType('VEC3').setArray(new Float32Array(mesh.colors!.subarray(0, 3 * n))));
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(prim));
  doc.createScene(name).addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
  doc.getRoot().getAsset().generator = 'viscid';
  return new WebIO().writeBinary(doc);
}
