/** The in-memory bundle of stores. */
import type { Stores } from '../ports.ts';
import { MemoryTaskDefStore, MemoryWorkflowDefStore } from './definitions.ts';

export function createMemoryStores(): Stores {
  return {
    workflowDefs: new MemoryWorkflowDefStore(),
    taskDefs: new MemoryTaskDefStore(),
    close: async () => {},
  };
}
