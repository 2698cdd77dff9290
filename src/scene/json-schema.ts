/**
 * The scene format as JSON Schema (draft 2020-12), generated from the one zod declaration in
 * schema.ts, for editors: a scene file says `"$schema": "../scene.schema.json"`. The `input` view
 * is used, so fields with defaults are optional and the defaults, ranges and descriptions show.
 */
import { z } from 'zod';
import { sceneSchema } from './schema.ts';

export function sceneJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(sceneSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    title: 'viscid scene',
    ...schema,
  };
}

/** The committed `scene.schema.json` text: stable key order, two-space indent, trailing newline. */
export function sceneJsonSchemaText(): string {
  return `${JSON.stringify(sceneJsonSchema(), null, 2)}\n`;
}
