/** Every task type the engine runs. A new type is one module here and one line below. */
import { TaskTypeRegistry } from '../registry.ts';
import { simpleTask } from './simple.ts';
import { subWorkflowTask } from './sub-workflow.ts';

export function defaultRegistry(): TaskTypeRegistry {
  return new TaskTypeRegistry().register(simpleTask, subWorkflowTask);
}
