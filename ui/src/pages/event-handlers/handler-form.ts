/**
 * The event handler editor's form and the EventHandler it saves: name, event (`<type>:<queue>`,
 * e.g. `conductor:orders` or `sqs:orders`), condition and its evaluator, active, description, and
 * the actions as a JSON array (each `{action, <action>: {...}}`, the action one the service
 * carries out). Every field the form does not show (tags...) is kept as it was. Pure, so it is
 * unit-tested.
 */
import { ACTIONS as EVENT_ACTIONS } from '../../../../lib/events/action-names.ts';
import type { EventHandler } from '../../api/routes.ts';
import { parseJsonText, prettyJson } from '../../logic/json-text.ts';

/** The actions a handler may take: the service's own list. */
export { EVENT_ACTIONS };

export interface HandlerForm {
  name: string;
  event: string;
  condition: string;
  evaluatorType: string;
  active: boolean;
  description: string;
  /** The actions, as JSON text. */
  actions: string;
}

export const NEW_HANDLER: HandlerForm = {
  name: '',
  event: 'conductor:',
  condition: '',
  evaluatorType: 'javascript',
  active: true,
  description: '',
  actions: prettyJson([{ action: 'start_workflow', start_workflow: { name: '', input: {} } }]),
};

export function formOf(handler: EventHandler): HandlerForm {
  return {
    name: handler.name,
    event: handler.event,
    condition: handler.condition ?? '',
    evaluatorType: handler.evaluatorType ?? 'javascript',
    active: handler.active === true,
    description: handler.description ?? '',
    actions: prettyJson(handler.actions ?? []),
  };
}

/** The actions typed, or why they cannot be saved. */
function actionsOf(
  text: string,
): { ok: true; actions: EventHandler['actions'] } | { ok: false; problem: string } {
  const parsed = parseJsonText(text.trim() === '' ? '[]' : text);
  if (!parsed.ok) return { ok: false, problem: `Actions: not valid JSON: ${parsed.message}` };
  if (!Array.isArray(parsed.value))
    return { ok: false, problem: 'Actions: the JSON must be an array ([ ... ]).' };
  for (const [i, item] of parsed.value.entries()) {
    const action = (item as { action?: unknown } | null)?.action;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return { ok: false, problem: `Actions: item ${i + 1} must be an object ({"action": ...}).` };
    if (!(EVENT_ACTIONS as readonly unknown[]).includes(action))
      return {
        ok: false,
        problem: `Actions: item ${i + 1} has action ${JSON.stringify(action ?? null)}; expected one of ${EVENT_ACTIONS.join(', ')}.`,
      };
  }
  return { ok: true, actions: parsed.value as EventHandler['actions'] };
}

/** The handler to save, or the problems that keep the form from saving. */
export function handlerOf(
  form: HandlerForm,
  base?: EventHandler,
): { ok: true; handler: EventHandler } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const name = form.name.trim();
  if (name === '') problems.push('Name is required.');
  else if (/[/\\]/.test(name)) problems.push('Name cannot hold / or \\.');
  const event = form.event.trim();
  if (!/^[^:\s]+:\S+/.test(event))
    problems.push('Event is required, as <type>:<queue> (for example conductor:orders or sqs:orders).');
  const actions = actionsOf(form.actions);
  if (!actions.ok) problems.push(actions.problem);
  if (problems.length > 0 || !actions.ok) return { ok: false, problems };
  const {
    condition: _condition,
    evaluatorType: _evaluator,
    description: _description,
    ...kept
  } = base ?? ({} as Partial<EventHandler>);
  const condition = form.condition.trim();
  return {
    ok: true,
    handler: {
      ...kept,
      name,
      event,
      ...(condition ? { condition, evaluatorType: form.evaluatorType || 'javascript' } : {}),
      actions: actions.actions,
      active: form.active,
      ...(form.description.trim() ? { description: form.description.trim() } : {}),
    },
  };
}
