/**
 * Loads data for a page: `{data, error, loading, reload}`, loading again whenever `key` changes
 * (the route parameters the loader reads). A result that arrives after the component is gone, or
 * after a newer load started, is dropped rather than shown.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  // `forKey` names the load this run belongs to; the loader itself is read from the ref.
  const run = useCallback(async (_forKey: string) => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await loader.current();
      if (mine !== generation.current) return;
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
    void run(key);
    return () => {
      generation.current++;
    };
  }, [key, run]);
  const reload = useCallback(() => run(key), [run, key]);
  return { data, error, loading, reload };
}
