/**
 * Freezes a value and everything in it, so it can be shared by every reader instead of copied: a
 * run's definition snapshot, a workflow task's snapshot, what the memory stores keep. A part found
 * frozen already is taken as frozen through (every freeze here is deep), and is not walked again.
 * Code that tried to change a shared part in place would fail loudly (a TypeError in strict mode)
 * rather than change it under its other readers.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
