/**
 * Fault injection for crash tests: wraps a bundle of stores so that every write (run and task rows,
 * logs, queue entries, poll data) is counted and, once armed with `failAfter(k)`, the (k+1)-th
 * write from then on throws instead of happening. The first k writes are really performed, so what
 * the failure leaves behind is exactly what a crash at that point would. The failure fires once and
 * disarms itself: code that swallows it and writes on (instead of stopping, as a dead process
 * would) is then visible in the final state. Reads pass through untouched.
 */
import { decorate, type Overrides } from '../../lib/store/decorate.ts';
import type { ExecutionStore, PollDataStore, Stores, TaskQueue } from '../../lib/store/ports.ts';

/** The error a simulated crash throws; tests can tell it from a real failure. */
export class InjectedCrash extends Error {
  constructor(readonly write: string) {
    super(`injected crash at write ${write}`);
    this.name = 'InjectedCrash';
  }
}

export interface FaultyStores {
  stores: Stores;
  /** Writes performed since the last `resetCount`. */
  readonly writes: number;
  resetCount(): void;
  /** Lets `k` more writes through, then throws on the next one, once. */
  failAfter(k: number): void;
  disarm(): void;
  /** The armed failure has fired since the last `failAfter`. */
  readonly tripped: boolean;
  /** Names of the writes performed since the last `resetCount`, in order. */
  readonly log: readonly string[];
}

const EXECUTION_WRITES = [
  'createWorkflow',
  'commitWorkflow',
  'removeWorkflow',
  'createTasks',
  'updateTask',
  'deleteTasks',
  'appendLogs',
  'holdRun',
] as const satisfies readonly (keyof ExecutionStore)[];
const QUEUE_WRITES = ['push', 'remove', 'removeAll'] as const satisfies readonly (keyof TaskQueue)[];
const POLL_DATA_WRITES = ['record'] as const satisfies readonly (keyof PollDataStore)[];

export function faultyStores(inner: Stores): FaultyStores {
  let writes = 0;
  let log: string[] = [];
  /** Writes still allowed before the crash; undefined when disarmed. */
  let budget: number | undefined;
  let tripped = false;

  const gate = (name: string): void => {
    if (budget !== undefined) {
      if (budget <= 0) {
        budget = undefined;
        tripped = true;
        throw new InjectedCrash(name);
      }
      budget -= 1;
    }
    writes += 1;
    log.push(name);
  };

  /** The target with the named methods gated; everything else is the target's own (decorate). */
  function wrap<T extends object>(target: T, prefix: string, names: readonly (keyof T & string)[]): T {
    // The method is looked up at each call, as decorate's own pass-throughs do.
    const gated = names.map((name) => [
      name,
      async (...args: unknown[]) => {
        gate(`${prefix}.${name}`);
        return (target[name] as (...args: unknown[]) => unknown).apply(target, args);
      },
    ]);
    return decorate<T>(target, Object.fromEntries(gated) as Overrides<T>);
  }

  const stores: Stores = {
    ...inner,
    executions: wrap(inner.executions, 'executions', EXECUTION_WRITES),
    queue: wrap(inner.queue, 'queue', QUEUE_WRITES),
    pollData: wrap(inner.pollData, 'pollData', POLL_DATA_WRITES),
    close: () => inner.close(),
  };

  return {
    stores,
    get writes() {
      return writes;
    },
    get log() {
      return log;
    },
    resetCount() {
      writes = 0;
      log = [];
    },
    get tripped() {
      return tripped;
    },
    failAfter(k) {
      budget = k;
      tripped = false;
    },
    disarm() {
      budget = undefined;
    },
  };
}
