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
  const [data, setData] = useState<T | undefined>(() => lastSeen.get(key) as T | undefined);
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
      setData(value);
      setError(undefined);
    } catch (failure) {
      if (mine !== generation.current) return;
      setError(failure);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    if (lastSeen.has(key)) setData(lastSeen.get(key) as T);
    void run(key);
    return () => {
      generation.current++;
    };
  }, [key, run]);
  const reload = useCallback(() => run(key), [run, key]);
  return { data, error, loading, reload };
}
