/**
 * The parameter panel, generated from the scene schema (src/scene/schema.ts): every number,
 * integer, boolean and enum under the chosen sections becomes a lil-gui control with the schema's
 * range and help text. Edits change a copy of the scene; the app applies them on reset.
 */
import type GUI from 'lil-gui';
import { sceneSchema } from '../scene/schema.ts';

/** The sections of a scene offered for tuning. */
export const PARAM_SECTIONS = ['fps', 'duration', 'materials', 'adhesion', 'particle', 'grid', 'output'] as const;

// zod 4 keeps each schema's structure in `_zod.def`; only the fields read here are typed.
interface Def {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  valueType?: Schema;
  element?: Schema;
  options?: Schema[];
  entries?: Record<string, string>;
  checks?: { _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string } } }[];
  format?: string;
}
interface Schema {
  _zod: { def: Def };
  description?: string;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  safeParse(v: unknown): { success: boolean };
}

type Obj = Record<string, unknown>;

function unwrap(s: Schema): { schema: Schema; description?: string } {
  let description = s.description;
  while (['default', 'prefault', 'optional', 'nullable', 'readonly'].includes(s._zod.def.type) && s._zod.def.innerType) {
    s = s._zod.def.innerType;
    description ??= s.description;
  }
  return { schema: s, description: description ?? s.description };
}

export interface ParamPanel {
  /** Number of controls generated. */
  controls: number;
  destroy(): void;
}

/**
 * Builds controls for `data` (a parsed scene, edited in place) under `parent`. `onChange` fires
 * after each edit.
 */
export function buildParamPanel(parent: GUI, data: Obj, onChange: () => void): ParamPanel {
  const root = parent.addFolder('Parameters (applied on reset)');
  let controls = 0;

  const walk = (schema: Schema, holder: Obj, key: string, folder: GUI, depth: number): void => {
    const { schema: s, description } = unwrap(schema);
    const value = holder[key];
    if (value === undefined) return;
    const def = s._zod.def;
    const tip = (c: { domElement: HTMLElement }) => {
      if (description) c.domElement.title = description;
      controls++;
    };
    switch (def.type) {
      case 'number': {
        const min = typeof s.minValue === 'number' && Number.isFinite(s.minValue) ? s.minValue : undefined;
        const max = typeof s.maxValue === 'number' && Number.isFinite(s.maxValue) ? s.maxValue : undefined;
        const isInt = s.isInt === true;
        const ctrl = min !== undefined && max !== undefined && max - min <= 1000
          ? folder.add(holder, key, min, max, isInt ? 1 : undefined)
          : folder.add(holder, key);
        if (isInt) ctrl.step(1);
        if (min !== undefined && !(max !== undefined && max - min <= 1000)) ctrl.min(min);
        ctrl.onFinishChange(onChange);
        tip(ctrl);
        return;
      }
      case 'boolean': {
        const ctrl = folder.add(holder, key).onChange(onChange);
        tip(ctrl);
        return;
      }
      case 'enum': {
        const ctrl = folder.add(holder, key, Object.values(def.entries ?? {})).onChange(onChange);
        tip(ctrl);
        return;
      }
      case 'object': {
        if (typeof value !== 'object' || value === null) return;
        const sub = depth === 0 ? folder : folder.addFolder(key);
        for (const [k, child] of Object.entries(def.shape ?? {})) walk(child, value as Obj, k, sub, depth + 1);
        if (sub !== folder) {
          if (sub.controllers.length === 0 && sub.folders.length === 0) sub.destroy();
          else sub.close();
        }
        return;
      }
      case 'record': {
        if (typeof value !== 'object' || value === null || !def.valueType) return;
        const sub = folder.addFolder(key);
        for (const k of Object.keys(value)) walk(def.valueType, value as Obj, k, sub, depth + 1);
        if (sub.controllers.length === 0 && sub.folders.length === 0) sub.destroy();
        else sub.close();
        return;
      }
      case 'array': {
        if (!Array.isArray(value) || !def.element) return;
        const sub = folder.addFolder(key);
        value.forEach((item, i) => {
          const label = itemLabel(item, i);
          const holderObj = { [label]: item } as Obj;
          walk(def.element!, holderObj, label, sub, depth + 1);
        });
        if (sub.controllers.length === 0 && sub.folders.length === 0) sub.destroy();
        else sub.close();
        return;
      }
      case 'union': {
        const option = (def.options ?? []).find((o) => o.safeParse(value).success);
        if (option && unwrap(option).schema._zod.def.type === 'object') walk(option, holder, key, folder, depth);
        return;
      }
      default:
        return; // tuples, strings, literals: edited in the scene file
    }
  };

  const shape = (sceneSchema as unknown as Schema)._zod.def.shape ?? {};
  for (const section of PARAM_SECTIONS) {
    if (shape[section]) walk(shape[section], data, section, root, 1);
  }
  root.close();
  return { controls, destroy: () => root.destroy() };
}

function itemLabel(item: unknown, i: number): string {
  if (item && typeof item === 'object') {
    const o = item as Obj;
    if (Array.isArray(o.between)) return `${i}: ${o.between.join(' / ')}`;
    if (typeof o.name === 'string') return `${i}: ${o.name}`;
  }
  return String(i);
}
