/** The in-memory bundle of stores. */
import type { Stores } from '../ports.ts';
import { MemoryTaskDefStore, MemoryWorkflowDefStore } from './definitions.ts';
import { MemoryExecutionStore } from './executions.ts';
import { MemoryPollDataStore, MemoryTaskQueue } from './queue.ts';

export function createMemoryStores(): Stores {
  return {
    workflowDefs: new MemoryWorkflowDefStore(),
    taskDefs: new MemoryTaskDefStore(),
    executions: new MemoryExecutionStore(),
    queue: new MemoryTaskQueue(),
    pollData: new MemoryPollDataStore(),
    close: async () => {},
  };
}
