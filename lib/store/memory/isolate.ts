/**
 * The memory stores' copy of what they keep and hand out: the value a JSON round trip would give
 * (undefined and functions dropped from objects, null in arrays; non-finite numbers null; toJSON
 * and other non-plain objects through JSON itself), built by walking it instead of serializing
 * and parsing, which costs about a third. Frozen objects (what a memory store keeps is frozen
 * through: lib/store/deep-freeze.ts) cannot change under anyone, so they are shared, not copied.
 */
export function isolate<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number' && !Number.isFinite(value)) return null;
    return value;
  }
  if (Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copyValue(value[i]);
      out[i] = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (
    (proto !== Object.prototype && proto !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return JSON.parse(JSON.stringify(value));
  }
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  // Own enumerable keys, as JSON.stringify takes them (Object.keys is faster than for-in here).
  const keys = Object.keys(source);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = source[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    // A key named __proto__ is data, as JSON.parse makes it, not the object's prototype.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: copyValue(item),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else out[key] = copyValue(item);
  }
  return out;
}
