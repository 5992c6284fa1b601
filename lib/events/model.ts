/**
 * Event handlers (docs/conductor-compat.md §2.8): what a handler is and the checks a save makes
 * (§1.3: 400 if name or event is missing, `actions` is not a list, or an action is not one this
 * service knows; a handler without actions is accepted, as Orkes accepts it, and does nothing),
 * and the record of one handler action carried out for one event message (EventExecution).
 */
import { ValidationError } from '../model/errors.ts';
import { type Tag, type TagView, tagFieldProblems, tagsOf, tagViews } from '../model/tags.ts';
import { ACTIONS } from './action-names.ts';

export interface EventAction {
  action: (typeof ACTIONS)[number];
  [key: string]: unknown;
}

export interface EventHandler {
  name: string;
  event: string;
  condition?: string;
  evaluatorType?: string;
  actions: EventAction[];
  active?: boolean;
  description?: string;
  /** Orkes' tags (lib/model/tags.ts); a save without them keeps the handler's. */
  tags?: Tag[];
  [key: string]: unknown;
}

/** A handler as the API answers it: its tags, when it has any, with `type: METADATA`. */
export function handlerView(handler: EventHandler): EventHandler & { tags?: TagView[] } {
  const { tags, ...rest } = handler;
  return tags && tags.length > 0 ? { ...rest, tags: tagViews(tags) } : rest;
}

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The handler a body describes, or a 400 naming what is wrong. */
export function parseHandler(body: unknown): EventHandler {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('An event handler is a JSON object');
  }
  const handler = body as Record<string, unknown>;
  const issues: string[] = [];
  if (!text(handler.name)) issues.push('Missing event handler name');
  else if (handler.name.length > 255 || /[/\\]/.test(handler.name))
    issues.push('Event handler name must be at most 255 characters, without / or \\');
  if (!text(handler.event)) issues.push('Missing event location');
  // No actions (absent, null or []) is a handler that does nothing yet (Orkes accepts it; OSS does not).
  if (handler.actions !== undefined && handler.actions !== null && !Array.isArray(handler.actions))
    issues.push('actions must be a list of actions');
  else if (Array.isArray(handler.actions)) {
    handler.actions.forEach((action: unknown, i) => {
      const name = (action as { action?: unknown } | null)?.action;
      if (!ACTIONS.includes(name as EventAction['action']))
        issues.push(`actions[${i}].action must be one of ${ACTIONS.join(', ')}`);
    });
  }
  if (handler.condition !== undefined && handler.condition !== null && typeof handler.condition !== 'string')
    issues.push('condition must be a string');
  if (handler.active !== undefined && handler.active !== null && typeof handler.active !== 'boolean')
    issues.push('active must be a boolean');
  for (const problem of tagFieldProblems(handler.tags)) issues.push(`${problem.path}: ${problem.message}`);
  if (issues.length > 0) throw new ValidationError(issues.join('; '));
  const { tags, ...rest } = handler;
  const actions = Array.isArray(handler.actions) ? handler.actions : [];
  return (
    tags === undefined || tags === null ? { ...rest, actions } : { ...rest, actions, tags: tagsOf(tags) }
  ) as EventHandler;
}

export type EventExecutionStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'SKIPPED';

/**
 * One handler action for one event message (§2.8 EventExecution). Its id derives from the message
 * id, the handler name and the action's index, so a message delivered again finds its record.
 */
export interface EventExecution {
  id: string;
  messageId: string;
  /** The handler's name. */
  name: string;
  event: string;
  /** Epoch ms. */
  created: number;
  status: EventExecutionStatus;
  action?: EventAction['action'];
  output?: Record<string, unknown>;
  /** The event's payload, as the official UI's event monitor shows it. */
  payload?: unknown;
  statusDescription?: string;
}

/** What a SKIPPED execution's statusDescription says when it recorded none. */
export const SKIPPED_DESCRIPTION = "The handler's condition did not match the message";

/**
 * The message an execution handled, as the official UI's event monitor shows it (Orkes'
 * `fullMessagePayload`): its id, its event and queue name, its payload as text, no headers, and no
 * receiving host (events reach this service through queues, not a listener of its own).
 */
export interface FullMessagePayload {
  _headers: Record<string, unknown>;
  name: string;
  id: string;
  message: string;
  event: string;
  _receiverHost: string | null;
}

/** An execution as the API answers it (Orkes' ExtendedEventExecution): every field the UI reads is present. */
export type EventExecutionView = EventExecution & {
  payload: unknown;
  statusDescription: string;
  fullMessagePayload: FullMessagePayload;
};

export function executionView(execution: EventExecution): EventExecutionView {
  const payload = execution.payload ?? null;
  const colon = execution.event.indexOf(':');
  return {
    ...execution,
    payload,
    statusDescription:
      execution.statusDescription ?? (execution.status === 'SKIPPED' ? SKIPPED_DESCRIPTION : ''),
    fullMessagePayload: {
      _headers: {},
      name: colon < 0 ? execution.event : execution.event.slice(colon + 1),
      id: execution.messageId,
      message: typeof payload === 'string' ? payload : JSON.stringify(payload),
      event: execution.event,
      _receiverHost: null,
    },
  };
}
