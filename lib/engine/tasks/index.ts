/**
 * Every task type the engine runs, built with what the types need (the script sandbox, the clock).
 * A new type is a spec in lib/model/task-types/, one module here and one line below
 * (docs/adding-a-task-type.md).
 */

import type { Clock } from '../../model/clock.ts';
import type { EventSinks } from '../event-sinks/sinks.ts';
import { createJqEvaluator, type JqEvaluator } from '../jq/jq.ts';
import { TaskTypeRegistry } from '../registry.ts';
import type { ScriptEvaluator } from '../script/evaluator.ts';
import { doWhileTask } from './do-while.ts';
import { dynamicTask } from './dynamic.ts';
import { eventTask } from './event.ts';
import { exclusiveJoinTask } from './exclusive-join.ts';
import { forkJoinTask } from './fork-join.ts';
import { forkJoinDynamicTask } from './fork-join-dynamic.ts';
import { type HttpTaskDeps, httpTask } from './http.ts';
import { inlineTask } from './inline.ts';
import { joinTask } from './join.ts';
import { jsonJqTransformTask } from './json-jq-transform.ts';
import { lambdaTask } from './lambda.ts';
import { noopTask } from './noop.ts';
import { type PullDeps, pullWorkflowMessagesTask } from './pull-workflow-messages.ts';
import { setVariableTask } from './set-variable.ts';
import { simpleTask } from './simple.ts';
import { startWorkflowTask, type WorkflowLauncher } from './start-workflow.ts';
import { subWorkflowTask } from './sub-workflow.ts';
import { decisionTask, switchTask } from './switch.ts';
import { terminateTask } from './terminate.ts';
import { humanTask, waitTask, yieldTask } from './wait.ts';

/** The ports task types may use, injected once when the registry is built. */
export interface TaskTypeDeps {
  scripts: ScriptEvaluator;
  /** For async types that run off the decider and stamp their results. */
  clock: Clock;
  /** JSON_JQ_TRANSFORM's jq; default: one shared jq worker, started on first use. */
  jq?: JqEvaluator;
  /** START_WORKFLOW's starter (the engine binds its own). */
  workflows?: WorkflowLauncher;
  /** Where HTTP tasks are handed off the decider (lib/engine/tasks/http.ts). */
  http?: HttpTaskDeps;
  /** PULL_WORKFLOW_MESSAGES' queue (lib/messages); absent, such a task fails naming what is missing. */
  messages?: PullDeps;
  /** Where EVENT tasks publish (lib/engine/event-sinks/sinks.ts); absent, such a task fails naming what is missing. */
  events?: EventSinks;
}

let sharedJq: JqEvaluator | undefined;

/** The process's jq evaluator; its idle worker never keeps the process alive. */
function defaultJq(): JqEvaluator {
  sharedJq ??= createJqEvaluator();
  return sharedJq;
}

export function defaultRegistry({
  scripts,
  jq,
  workflows,
  http,
  messages,
  events,
}: TaskTypeDeps): TaskTypeRegistry {
  return new TaskTypeRegistry()
    .register(simpleTask, subWorkflowTask, dynamicTask, noopTask, startWorkflowTask(workflows))
    .register(switchTask(scripts), decisionTask(scripts), inlineTask(scripts), doWhileTask(scripts))
    .register(
      lambdaTask(scripts),
      jsonJqTransformTask(() => jq ?? defaultJq()),
      httpTask(http),
    )
    .register(forkJoinTask, joinTask, waitTask, humanTask, yieldTask, terminateTask, setVariableTask)
    .register(forkJoinDynamicTask, exclusiveJoinTask, pullWorkflowMessagesTask(messages), eventTask(events));
}
