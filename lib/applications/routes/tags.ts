/** An application's tags: read, add (PUT), remove (DELETE with the tags in the body). */
import type { RouteDef } from '../../http/router.ts';
import { tagRoutes } from '../../http/tag-routes.ts';
import type { Tag } from '../../model/tags.ts';
import type { ApplicationService } from '../service.ts';
import { APP_PARAMS, callerOf, TAGS_BODY } from './contracts.ts';

export const applicationTagRoutes = (apps: ApplicationService): RouteDef[] =>
  tagRoutes({
    path: '/api/applications/{id}/tags',
    params: APP_PARAMS,
    param: 'id',
    what: 'an application',
    permissions: { read: 'administration', manage: 'administration' },
    add: 'PUT',
    addNote: 'one already there is kept once',
    // A list of tags, checked by the route's contract.
    body: TAGS_BODY,
    tagsOf: (body) => body as Tag[],
    tags: (id) => apps.tags(id),
    change: (id, change, ctx) =>
      'add' in change
        ? apps.addTags(id, change.add, callerOf(ctx))
        : apps.removeTags(id, 'remove' in change ? change.remove : [], callerOf(ctx)),
  });
