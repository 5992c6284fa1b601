/**
 * A workflow task's inline `taskDefinition`: what it carries and what it overrides. As in
 * Conductor, a run uses an inline definition in place of the registered definition of the task's
 * name, and the server fills every policy field it leaves out with TaskDef's defaults (3 retries,
 * FIXED, 60 s apart, 3,600 s response timeout). So an inline definition made only to hold a schema
 * starts as a copy of the registered definition, and the editor says where the two differ.
 */
import type { TaskDef } from '../api/routes.ts';

/** Fields that are not run policy: who and what the definition is, and its schemas. */
const NOT_POLICY = new Set([
  'name',
  'description',
  'inputSchema',
  'outputSchema',
  'enforceSchema',
  'ownerEmail',
  'ownerApp',
  'createTime',
  'updateTime',
  'createdBy',
  'updatedBy',
  'tags',
]);

const AUDIT = ['createTime', 'updateTime', 'createdBy', 'updatedBy', 'ownerApp', 'tags'];

/** What the server fills into an inline definition that leaves a field out (Conductor's TaskDef). */
export const SERVER_DEFAULTS = {
  retryCount: 3,
  retryLogic: 'FIXED',
  retryDelaySeconds: 60,
  timeoutSeconds: 0,
  timeoutPolicy: 'TIME_OUT_WF',
  responseTimeoutSeconds: 3600,
} as const;

/** A registered definition as an inline one: the same fields, without the audit ones. */
export function inlineFrom(registered: TaskDef): TaskDef {
  const copy: Record<string, unknown> = { ...registered };
  for (const field of AUDIT) delete copy[field];
  return copy as TaskDef;
}

/**
 * The inline definition to start from for a task: the registered definition of its name, else the
 * policy the task runs with unregistered (a worker task's is the server's defaults; any other
 * type never retries).
 */
export function inlineDefFor(task: { name: string; type: string }, registered: TaskDef | undefined): TaskDef {
  if (registered) return inlineFrom(registered);
  return (task.type === 'SIMPLE' ? { name: task.name } : { name: task.name, retryCount: 0 }) as TaskDef;
}

export interface PolicyDifference {
  field: string;
  inline: unknown;
  registered: unknown;
}

const policyFields = (def: Record<string, unknown>) => Object.keys(def).filter((k) => !NOT_POLICY.has(k));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Where an inline definition's policy differs from the registered one (fields the inline one sets). */
export function policyDifferences(inline: TaskDef, registered: TaskDef): PolicyDifference[] {
  const fields = new Set([...policyFields(inline), ...policyFields(registered)]);
  const out: PolicyDifference[] = [];
  for (const field of fields) {
    const here = inline[field] ?? SERVER_DEFAULTS[field as keyof typeof SERVER_DEFAULTS];
    if (here === undefined) continue;
    if (!same(here, registered[field])) out.push({ field, inline: here, registered: registered[field] });
  }
  return out;
}

/** The registered policy with the inline definition's name and schemas kept. */
export function withRegisteredPolicy(inline: TaskDef, registered: TaskDef): TaskDef {
  const out: Record<string, unknown> = { ...inlineFrom(registered), name: inline.name };
  for (const field of ['inputSchema', 'outputSchema', 'enforceSchema']) {
    if (inline[field] === undefined) delete out[field];
    else out[field] = inline[field];
  }
  return out as TaskDef;
}

/** Whether an inline definition holds nothing of its own: no schemas and no policy of its own. */
export function shouldDropInline(
  inline: TaskDef,
  task: { name: string; type: string },
  registered: TaskDef | undefined,
): boolean {
  if (inline.inputSchema !== undefined || inline.outputSchema !== undefined || inline.enforceSchema === true)
    return false;
  const base = inlineDefFor(task, registered);
  return registered
    ? policyDifferences(inline, registered).length === 0
    : Object.keys(inline).every((k) => same(inline[k], base[k]));
}

/** The policy in words: retries, timeout, response timeout (left-out fields read as the server fills them). */
export function describePolicy(def: TaskDef): string {
  const value = (field: keyof typeof SERVER_DEFAULTS): unknown => def[field] ?? SERVER_DEFAULTS[field];
  const retries = Number(value('retryCount'));
  const retry =
    retries === 0
      ? 'no retries'
      : `${retries} ${retries === 1 ? 'retry' : 'retries'} (${String(value('retryLogic'))}, ${String(value('retryDelaySeconds'))} s apart)`;
  const timeout = Number(value('timeoutSeconds'));
  return [
    retry,
    timeout === 0 ? 'no timeout' : `timeout ${timeout} s (${String(value('timeoutPolicy'))})`,
    `response timeout ${String(value('responseTimeoutSeconds'))} s`,
  ].join('; ');
}
