/**
 * The service's task definitions as a test run's throwaway engine sees them: readable (a start
 * embeds the registered definitions, so retries and timeouts behave as in a real run) and never
 * writable, so no test run can change the service's metadata.
 */
import type { TaskDefStore } from '../../store/ports.ts';

export function readOnlyTaskDefs(store: TaskDefStore): TaskDefStore {
  const refuse = async (): Promise<never> => {
    throw new Error('A test run cannot change task definitions');
  };
  return {
    get: (name) => store.get(name),
    getMany: (names, options) => store.getMany(names, options),
    list: () => store.list(),
    tags: (name) => store.tags(name),
    allTags: () => store.allTags(),
    put: refuse,
    delete: refuse,
    changeTags: refuse,
  };
}
