/**
 * Every task type the engine runs, built with what the types need (the script sandbox, the clock).
 * A new type is a spec in lib/model/task-types/, one module here and one line below
 * (docs/adding-a-task-type.md).
 */
import type { Clock } from '../../model/clock.ts';
import { TaskTypeRegistry } from '../registry.ts';
import type { ScriptEvaluator } from '../script/evaluator.ts';
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

/** The ports task types may use, injected once when the registry is built. */
export interface TaskTypeDeps {
  scripts: ScriptEvaluator;
  /** For async types that run off the decider and stamp their results. */
  clock: Clock;
}

export function defaultRegistry({ scripts }: TaskTypeDeps): TaskTypeRegistry {
  return new TaskTypeRegistry()
    .register(simpleTask, subWorkflowTask)
    .register(switchTask(scripts), decisionTask(scripts), inlineTask(scripts), doWhileTask(scripts))
    .register(forkJoinTask, joinTask, waitTask, humanTask, yieldTask, terminateTask, setVariableTask);
}
