/**
 * Parameter templating (docs/conductor-compat.md §4.8, Conductor's ParametersUtils): resolves `${path}`
 * expressions in task inputs, workflow outputs and the other templated fields. Pure: no IO, no clock.
 *
 * Deliberate differences from Conductor:
 * - No environment variable or system property is ever read: `${workflow.env.X}` and bare names that
 *   are neither `workflow` nor a task reference (`${HOME}`) resolve to null.
 * - Maps and lists spliced into text are written as JSON, not as Java's `{a=1}`.
 * - The `$${` escape is undone in the template's own text only, never inside spliced values.
 * - A resolved map or list is a copy: later changes to the result never reach the context, and back.
 */
import { type PathRoot, readPath } from './jsonpath.ts';

/** The document paths are read from: `workflow` plus one entry per task reference name. */
export interface TemplateContext {
  workflow: Record<string, unknown>; // input, output, status, workflowId, parentWorkflowId, parentWorkflowTaskId, workflowType, version, correlationId, reasonForIncompletion, schemaVersion, variables
  tasks: Record<string, Record<string, unknown>>; // by base reference name (no __N suffix): input, output, taskType, status, referenceTaskName, retryCount, ... iteration
  /** id of the task being built, for ${CPEWF_TASK_ID} */
  taskId?: string;
}

/** `${...}`: its text between the braces, already split around nested expressions. */
interface Expression {
  source: string;
  parts: Part[];
}
type Part = string | Expression;

/** A parsed string value; `whole` is set when it is exactly one expression, which keeps the value's type. */
interface Template {
  parts: Part[];
  whole?: Expression;
}

/** Text to leave as written: secrets are resolved later, when a worker polls the task. */
class Verbatim {
  constructor(readonly text: string) {}
}

const SECRETS = /^(?:\$\.)?workflow(?:\.secrets|\[\s*['"]secrets['"]\s*\])(?:$|[.[])/;
const ENV = /^(?:\$\.)?workflow(?:\.env|\[\s*['"]env['"]\s*\])(?:$|[.[])/;
const TASK_ID = 'CPEWF_TASK_ID';

/** Index of the `}` closing the `{` at `open`, counting nested braces; -1 when unbalanced. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function parseParts(text: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let pos = 0;
  while (pos < text.length) {
    const dollar = text.indexOf('$', pos);
    if (dollar < 0) {
      literal += text.slice(pos);
      break;
    }
    literal += text.slice(pos, dollar);
    if (text.startsWith('$${', dollar)) {
      literal += '${';
      pos = dollar + 3;
      continue;
    }
    const close = text[dollar + 1] === '{' ? closingBrace(text, dollar + 1) : -1;
    if (close < 0) {
      literal += '$';
      pos = dollar + 1;
      continue;
    }
    if (literal !== '') parts.push(literal);
    literal = '';
    const source = text.slice(dollar + 2, close);
    parts.push({ source, parts: parseParts(source) });
    pos = close + 1;
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

const MAX_CACHED_TEMPLATES = 10_000;
const MAX_CACHED_LENGTH = 4_096;
const templates = new Map<string, Template>();

function parseTemplate(text: string): Template {
  const cached = templates.get(text);
  if (cached) return cached;
  const parts = parseParts(text);
  const [first] = parts;
  const template: Template = {
    parts,
    whole: parts.length === 1 && typeof first === 'object' ? first : undefined,
  };
  if (text.length <= MAX_CACHED_LENGTH) {
    if (templates.size >= MAX_CACHED_TEMPLATES) templates.clear();
    templates.set(text, template);
  }
  return template;
}

/** Where a template's paths are read from, and the task id `${CPEWF_TASK_ID}` names. */
interface TemplateRoot extends PathRoot {
  readonly taskId?: string;
}

/** The root `{ workflow, ...tasks }`; the merged object is only built for library-evaluated paths. */
class ContextRoot implements TemplateRoot {
  private merged: Record<string, unknown> | undefined;

  constructor(readonly ctx: TemplateContext) {}

  get taskId(): string | undefined {
    return this.ctx.taskId;
  }

  lookup(name: string): unknown {
    if (name === 'workflow') return this.ctx.workflow;
    return Object.hasOwn(this.ctx.tasks, name) ? this.ctx.tasks[name] : undefined;
  }

  document(): Record<string, unknown> {
    this.merged ??= { ...this.ctx.tasks, workflow: this.ctx.workflow };
    return this.merged;
  }
}

/** Any JSON document as the root: an event's payload for the handler's actions (§4.8.7). */
class DocumentRoot implements TemplateRoot {
  constructor(private readonly doc: Record<string, unknown>) {}

  lookup(name: string): unknown {
    return Object.hasOwn(this.doc, name) ? this.doc[name] : undefined;
  }

  document(): Record<string, unknown> {
    return this.doc;
  }
}

/** How a value reads when spliced into text. */
function toText(value: unknown): string {
  if (value instanceof Verbatim) return value.text;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function evaluate(expression: Expression, root: TemplateRoot): unknown {
  let path = '';
  for (const part of expression.parts) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    const inner = evaluate(part, root);
    if (inner instanceof Verbatim) return new Verbatim(`\${${expression.source}}`);
    path += toText(inner);
  }
  path = path.trim();
  if (path === '') return '';
  if (path === TASK_ID) return root.taskId ?? null;
  if (SECRETS.test(path)) return new Verbatim(`\${${expression.source}}`);
  if (ENV.test(path)) return null;
  return readPath(path, root);
}

/** Sets a key even when it is `__proto__`, which plain assignment would treat as the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

const isPlainMap = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** A deep copy of JSON data, so results never alias the context they were read from. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (!isPlainMap(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, copyJson(value[key]));
  return copy;
}

function resolveString(text: string, root: TemplateRoot): unknown {
  if (!text.includes('$')) return text;
  const template = parseTemplate(text);
  if (template.whole) {
    const value = evaluate(template.whole, root);
    return value instanceof Verbatim ? value.text : copyJson(value);
  }
  let out = '';
  for (const part of template.parts) out += typeof part === 'string' ? part : toText(evaluate(part, root));
  return out;
}

function resolveMap(map: Record<string, unknown>, root: TemplateRoot): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(map)) setOwn(out, key, resolveValue(map[key], root));
  return out;
}

function resolveValue(value: unknown, root: TemplateRoot): unknown {
  if (typeof value === 'string') return resolveString(value, root);
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, root));
  if (isPlainMap(value)) return resolveMap(value, root);
  return value;
}

/** Resolves `${...}` templates in any JSON value (maps and lists walked recursively, non-strings pass through). */
export function resolveParameters(template: unknown, ctx: TemplateContext): unknown {
  return resolveValue(template, new ContextRoot(ctx));
}

/** Convenience: resolves a map of input parameters and returns a new map. */
export function resolveInput(
  inputParameters: Record<string, unknown> | undefined,
  ctx: TemplateContext,
): Record<string, unknown> {
  return inputParameters ? resolveMap(inputParameters, new ContextRoot(ctx)) : {};
}

/** Which task references a value's templates read from (TemplateRefs). */
export interface TemplateRefs {
  /** The first names of the paths (`x` of `${x.output.y}`; `workflow` too). */
  names: Set<string>;
  /** Some path's first name is known only when it is read (`${${workflow.input.ref}.output}`, `${$..x}`). */
  any: boolean;
}

/** A `${...}` path's first name, or undefined when only reading the path can tell (`cut`: text follows). */
function rootName(text: string, cut: boolean): string | undefined {
  let path = text.trimStart();
  if (path.startsWith('$.')) path = path.slice(2);
  else if (path.startsWith('$[')) path = path.slice(1);
  if (path.startsWith('[')) {
    const quoted = /^\[\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\]/.exec(path);
    return quoted ? (quoted[1] ?? quoted[2]) : undefined;
  }
  const end = path.search(/[.[]/);
  if (end < 0 && cut) return undefined;
  const name = (end < 0 ? path : path.slice(0, end)).trim();
  return name === '' || /[*()?@'"\s\]$,:]/.test(name) ? undefined : name;
}

function collectRefs(value: unknown, refs: TemplateRefs): void {
  if (typeof value === 'string') {
    if (!value.includes('$')) return;
    const visit = (parts: Part[]): void => {
      for (const part of parts) {
        if (typeof part === 'string') continue;
        const first = part.parts.findIndex((p) => typeof p !== 'string');
        const literal = (first < 0 ? part.parts : part.parts.slice(0, first)).join('');
        const name = rootName(literal, first >= 0);
        if (name === undefined) refs.any = true;
        else refs.names.add(name);
        visit(part.parts);
      }
    };
    visit(parseTemplate(value).parts);
  } else if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, refs);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) collectRefs(item, refs);
  }
}

/** The task references the `${...}` templates anywhere in a value (a definition) read from. */
export function templateRefs(value: unknown): TemplateRefs {
  const refs: TemplateRefs = { names: new Set(), any: false };
  collectRefs(value, refs);
  return refs;
}

/**
 * Resolves `${path}` templates with paths read from the root of `document` (event-handler actions
 * read the event's payload: `${workflowInstanceId}`, `${data.orderId}`; docs/conductor-compat.md §4.8.7).
 */
export function resolveAgainst(template: unknown, document: Record<string, unknown>): unknown {
  return resolveValue(template, new DocumentRoot(document));
}
