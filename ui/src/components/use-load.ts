/**
 * Loads data for a page: `{data, error, loading, reload}`, loading again whenever `key` changes
 * (the route parameters the loader reads). A result that arrives after the component is gone, or
 * after a newer load started, is dropped rather than shown. The last result of each key is kept
 * for the session: coming back to a page shows it at once while it reloads (stale while
 * revalidating), so a page of the loaded UI shows its data without waiting for the network.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

/** The last data of each key (a few lists and records; a session holds few keys). */
const lastSeen = new Map<string, unknown>();

export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  // The data with the key it belongs to: after the key changes, the previous key's data is never
  // shown as the new key's (a page would show, and save, what another route loaded).
  const [held, setHeld] = useState<{ key: string; value: T | undefined }>(() => ({
    key,
    value: lastSeen.get(key) as T | undefined,
  }));
  const data = held.key === key ? held.value : (lastSeen.get(key) as T | undefined);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  // `forKey` names the load this run belongs to; the loader itself is read from the ref.
  const run = useCallback(async (forKey: string) => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await loader.current();
      if (mine !== generation.current) return;
      lastSeen.set(forKey, value);
      setHeld({ key: forKey, value });
      setError(undefined);
    } catch (failure) {
      if (mine !== generation.current) return;
      setError(failure);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    setHeld({ key, value: lastSeen.get(key) as T | undefined });
    setError(undefined);
    void run(key);
    return () => {
      generation.current++;
    };
  }, [key, run]);
  const reload = useCallback(() => run(key), [run, key]);
  return { data, error, loading: loading || held.key !== key, reload };
}
