/**
 * The execution store as its readers and the engine see it, composed in this one place: the
 * adapter, then large payloads kept outside the records (lib/payloads/externalizing-store.ts),
 * then ended runs past their retention hidden (lib/workflows/retention.ts), then every write
 * published to the requests waiting on a run (lib/workflows/progress.ts). The order matters:
 * retention reads and filters whole runs, and a waiter woken by a publish reads the run through
 * every layer below.
 *
 * A layer left out of the options is not applied. The host's whole stack is built once, by the
 * workflows capability's store decorator, and every reader and writer (the engine, search, events,
 * jobs) uses it; a test run's throwaway engine builds the publishing layer over its memory store.
 */
import type { Clock } from '../model/clock.ts';
import { type ExternalizeOptions, externalizingExecutions } from '../payloads/externalizing-store.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import type { ExecutionStore } from '../store/ports.ts';
import { publishingExecutions, type RunWatcher } from './progress.ts';
import { type Retention, retainingExecutions } from './retention.ts';

export interface ExecutionLayers {
  /** Payloads over the threshold go to this store. */
  externalize?: ExternalizeOptions & { payloads: PayloadStore };
  /** Ended runs and log lines expire. */
  retention?: Retention & { clock: Clock };
  /** Every write to a run is published here. */
  publishTo?: RunWatcher;
}

export function executionStoreStack(adapter: ExecutionStore, layers: ExecutionLayers): ExecutionStore {
  let store = adapter;
  if (layers.externalize) {
    const { payloads, ...options } = layers.externalize;
    store = externalizingExecutions(store, payloads, options);
  }
  if (layers.retention) {
    const { clock, ...retention } = layers.retention;
    store = retainingExecutions(store, retention, clock);
  }
  if (layers.publishTo) store = publishingExecutions(store, layers.publishTo);
  return store;
}
