/** Every task type the engine runs. A new type is one module here and one line below. */
import { TaskTypeRegistry } from '../registry.ts';
import { doWhileTask } from './do-while.ts';
import { forkJoinTask } from './fork-join.ts';
import { inlineTask } from './inline.ts';
import { joinTask } from './join.ts';
import { setVariableTask } from './set-variable.ts';
import { simpleTask } from './simple.ts';
import { subWorkflowTask } from './sub-workflow.ts';
import { decisionTask, switchTask } from './switch.ts';
import { terminateTask } from './terminate.ts';
import { humanTask, waitTask, yieldTask } from './wait.ts';

export function defaultRegistry(): TaskTypeRegistry {
  return new TaskTypeRegistry()
    .register(simpleTask, subWorkflowTask)
    .register(switchTask, decisionTask, inlineTask, doWhileTask)
    .register(forkJoinTask, joinTask, waitTask, humanTask, yieldTask, terminateTask, setVariableTask);
}
