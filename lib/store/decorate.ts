/**
 * Decorators of a store port without hand-written pass-throughs: `decorate(inner, overrides)`
 * answers an object with every method of `inner` and the overrides in their place, so a decorator
 * states only what it changes, and a method added to a port needs no edit in the decorators that
 * leave it alone.
 *
 * The object is built once, of plain functions: inner methods bound to `inner`, overrides as given.
 * Calls pay no Proxy trap and no wrapper of ours (the store is on the hottest path of the
 * service), and a decorator over a decorated store takes its functions as they are, so pass-through
 * methods of a stack of decorators are the adapter's own, bound once.
 */

/**
 * What a decorator changes: methods of the port, checked against it (a misnamed method or a wrong
 * signature does not compile). Overrides call the inner store by closure, never through `this`.
 */
export type Overrides<Port> = Partial<Port> & ThisType<void>;

/** Objects built here: their functions need no `this`, so a decorator over one copies them as they are. */
const unbound = new WeakSet<object>();

export function decorate<Port extends object>(inner: Port, overrides: NoInfer<Overrides<Port>>): Port {
  const out: Record<string, unknown> = {};
  const source = inner as Record<string, unknown>;
  const bind = !unbound.has(inner);
  for (const name of methodNames(inner)) {
    const method = source[name] as (...args: unknown[]) => unknown;
    out[name] = bind ? method.bind(inner) : method;
  }
  for (const [name, method] of Object.entries(overrides)) {
    if (method !== undefined) out[name] = method;
  }
  unbound.add(out);
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
