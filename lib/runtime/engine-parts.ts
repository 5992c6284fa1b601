/**
 * The parts of a function that runs the engine (starts, decides or changes runs): every capability
 * the engine is made of (lib/engine-capabilities.ts), the function's own, and the engine itself.
 */
import type { AnyCapability } from '../capabilities.ts';
import { ENGINE_CAPABILITIES } from '../engine-capabilities.ts';
import type { ServiceParts } from './compose.ts';
import { createEngine } from './engine.ts';

export function withEngine(...own: AnyCapability[]): ServiceParts {
  return {
    capabilities: [...ENGINE_CAPABILITIES, ...own.filter((c) => !ENGINE_CAPABILITIES.includes(c))],
    engine: createEngine,
  };
}
