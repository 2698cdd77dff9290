/**
 * The validation cases, in the order `viscid validate` runs and reports them. A new case is a file
 * in this folder exporting a `ValidationCase`, and one entry here.
 */
import type { ValidationCase } from './case.ts';
import { hydrostatic } from './hydrostatic.ts';
import { freeFall } from './free-fall.ts';
import { poiseuille, poiseuilleStart } from './poiseuille.ts';
import { cavity } from './cavity.ts';
import { damBreak } from './dam-break.ts';
import { spreading } from './spreading.ts';
import { shearDecay, slotPoiseuille } from './particle-viscosity.ts';
import { ropeCoiling } from './rope-coiling.ts';

export const VALIDATION_CASES: readonly ValidationCase[] = [hydrostatic, freeFall, poiseuille, poiseuilleStart, cavity, damBreak, spreading, slotPoiseuille, shearDecay, ropeCoiling];

export function findCase(name: string): ValidationCase {
  const c = VALIDATION_CASES.find((v) => v.name === name);
  if (!c) throw new Error(`no validation case '${name}'; cases: ${VALIDATION_CASES.map((v) => v.name).join(', ')}`);
  return c;
}
