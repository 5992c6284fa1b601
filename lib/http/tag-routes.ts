/**
 * The tag routes of a named thing, as Orkes has them for definitions, event handlers, schedules
 * and applications: GET answers its tags; the add method (POST for definitions, PUT elsewhere)
 * adds one tag or a list; PUT replaces them all where `replaces` is set; DELETE removes the tags
 * given (key and value both matching). Each capability says where its tags live (`tags`,
 * `change`), which answer 404 for an unknown name.
 */

import { TAG_BODY, type Tag, type TagChange, type TagView, tagsOfBody } from '../model/tags.ts';
import type { Permission } from '../security/roles.ts';
import type { BodyContract, ParamsSchema } from './contract.ts';
import { emptyOk, json } from './responses.ts';
import { type RouteContext, type RouteDef, route } from './router.ts';

const TAGS_BODY: BodyContract = { ...TAG_BODY, required: true };

export interface TaggedThing {
  /** The route's path, e.g. `/api/event/{name}/tags`. */
  path: string;
  /** Its path parameters; `param` names the one that names the thing. */
  params: ParamsSchema;
  param: string;
  /** What the thing is, for the summaries: "an event handler". */
  what: string;
  permissions: { read: Permission; manage: Permission };
  /** The method that adds tags: POST where PUT replaces them (definitions), else PUT. */
  add: 'POST' | 'PUT';
  /** How an add treats a tag already there (default: a key already there gets the new value). */
  addNote?: string;
  /** PUT replaces the tags (only with `add: 'POST'`). */
  replaces?: boolean;
  /** The body a change takes, and the tags in it (default: one tag or a list, TAG_BODY). */
  body?: BodyContract;
  tagsOf?: (body: unknown) => Tag[];
  tags(name: string): Promise<readonly Tag[] | readonly TagView[]>;
  change(name: string, change: TagChange, ctx: RouteContext): Promise<void>;
}

export function tagRoutes(thing: TaggedThing): RouteDef[] {
  const { path, params, param, what, permissions } = thing;
  const body = thing.body ?? TAGS_BODY;
  const tagsOf = thing.tagsOf ?? tagsOfBody;
  const nameOf = (ctx: RouteContext) => ctx.params[param] as string;
  const changing = (method: 'POST' | 'PUT' | 'DELETE', summary: string, change: (tags: Tag[]) => TagChange) =>
    route({
      method,
      path,
      permission: permissions.manage,
      summary,
      request: { params, body },
      handler: async (ctx) => {
        await thing.change(nameOf(ctx), change(tagsOf(await ctx.json())), ctx);
        return emptyOk();
      },
    });
  return [
    route({
      method: 'GET',
      path,
      permission: permissions.read,
      summary: `The tags of ${what}`,
      request: { params },
      responds: 'application/json',
      returns: 'Tag[]',
      handler: async (ctx) => json(await thing.tags(nameOf(ctx))),
    }),
    changing(
      thing.add,
      `Add tags to ${what} (${thing.addNote ?? 'a key already there gets the new value'})`,
      (tags) => ({ add: tags }),
    ),
    ...(thing.replaces
      ? [changing('PUT', `Replace the tags of ${what}`, (tags) => ({ replace: tags }))]
      : []),
    changing('DELETE', `Remove tags of ${what} (key and value matching)`, (tags) => ({ remove: tags })),
  ];
}
