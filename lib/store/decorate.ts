/**
 * Decorators of a store port without hand-written pass-throughs: `decorate(inner, overrides)`
 * answers an object with every method of `inner` and the overrides in their place, so a decorator
 * states only what it changes, and a method added to a port needs no edit in the decorators that
 * leave it alone.
 *
 * The object is built once, of plain functions (the store is on the hottest path of the service:
 * no Proxy trap per call). A pass-through to a store not built here looks its method up at each
 * call, as a hand-written `inner.method(...)` does, so a method of the adapter replaced later (a
 * test's probe) is still the one called. A decorator over a decorated store takes its functions as
 * they are: a stack of decorators costs a pass-through call one look-up, not a wrapper per layer.
 */

/**
 * What a decorator changes: methods of the port, checked against it (a misnamed method or a wrong
 * signature does not compile). Overrides call the inner store by closure, never through `this`.
 */
export type Overrides<Port> = Partial<Port> & ThisType<void>;

type Method = (...args: unknown[]) => unknown;

/** Objects built here: their functions need no `this`, so a decorator over one copies them as they are. */
const built = new WeakSet<object>();

export function decorate<Port extends object>(inner: Port, overrides: NoInfer<Overrides<Port>>): Port {
  const methods = new Map<string, unknown>();
  const source = inner as Record<string, Method>;
  const decorated = built.has(inner);
  for (const name of methodNames(inner)) {
    methods.set(name, decorated ? source[name] : (...args: unknown[]) => (source[name] as Method)(...args));
  }
  for (const [name, method] of Object.entries(overrides)) {
    if (method !== undefined) methods.set(name, method);
  }
  // Built in one go: an object given its ~20 methods one computed key at a time falls back to
  // slow (dictionary) properties in V8, and every call on the store would look its method up so.
  const out = Object.fromEntries(methods);
  built.add(out);
  return out as Port;
}

/**
 * Names of the methods `target` has, its own and its classes' (not Object's), getters left out.
 * A subclass's method shadows its base class's of the same name, as a call would find it.
 */
function methodNames(target: object): string[] {
  const seen = new Set<string>(['constructor']);
  const names: string[] = [];
  for (let o: object | null = target; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (typeof Object.getOwnPropertyDescriptor(o, name)?.value === 'function') names.push(name);
    }
  }
  return names;
}
