/**
 * Every task type the service knows by name, one spec each, and what is derived from them: the
 * known-type names and the registration rules. A type name not listed here is a user-defined
 * worker task (Conductor's USER_DEFINED), queued under its own name.
 */
import { doWhileSpec } from './do-while.ts';
import { dynamicSpec } from './dynamic.ts';
import { eventSpec } from './event.ts';
import { exclusiveJoinSpec } from './exclusive-join.ts';
import { forkJoinSpec, joinSpec } from './fork-join.ts';
import { forkJoinDynamicSpec } from './fork-join-dynamic.ts';
import { httpSpec } from './http.ts';
import { inlineSpec } from './inline.ts';
import { jsonJqTransformSpec } from './json-jq-transform.ts';
import { lambdaSpec } from './lambda.ts';
import { noopSpec } from './noop.ts';
import { pullWorkflowMessagesSpec } from './pull-workflow-messages.ts';
import { setVariableSpec } from './set-variable.ts';
import { simpleSpec, userDefinedSpec } from './simple.ts';
import { type TaskTypeSpec, workerSpec } from './spec.ts';
import { startWorkflowSpec } from './start-workflow.ts';
import { subWorkflowSpec } from './sub-workflow.ts';
import { decisionSpec, switchSpec } from './switch.ts';
import { terminateSpec } from './terminate.ts';
import { UNSUPPORTED_SPECS } from './unsupported.ts';
import { humanSpec, waitSpec, yieldSpec } from './wait.ts';

export const TASK_TYPE_SPECS: readonly TaskTypeSpec[] = [
  simpleSpec,
  userDefinedSpec,
  switchSpec,
  decisionSpec,
  forkJoinSpec,
  joinSpec,
  doWhileSpec,
  subWorkflowSpec,
  inlineSpec,
  setVariableSpec,
  terminateSpec,
  waitSpec,
  humanSpec,
  yieldSpec,
  noopSpec,
  pullWorkflowMessagesSpec,
  lambdaSpec,
  jsonJqTransformSpec,
  dynamicSpec,
  exclusiveJoinSpec,
  startWorkflowSpec,
  forkJoinDynamicSpec,
  httpSpec,
  eventSpec,
  ...UNSUPPORTED_SPECS,
];

const byType = new Map(TASK_TYPE_SPECS.map((spec) => [spec.type, spec]));

/** Task types the service knows by name (docs/conductor-compat.md §5). Other strings are user-defined. */
export const KNOWN_TASK_TYPES: readonly string[] = TASK_TYPE_SPECS.map((spec) => spec.type);

export function isKnownTaskType(type: string): boolean {
  return byType.has(type);
}

/** The spec of a type name; an unknown name is a worker type of that name. */
export function specOf(type: string): TaskTypeSpec {
  return byType.get(type) ?? workerSpec(type);
}

/** Every child-list field any type declares: registration checks their shape on every task. */
export const CHILD_FIELDS = [
  ...new Map(TASK_TYPE_SPECS.flatMap((s) => s.children ?? []).map((f) => [f.name, f])).values(),
];

export type { ChildField, IssueSink, TaskKind, TaskTypeSpec } from './spec.ts';
export { childListsOf, workerSpec } from './spec.ts';
