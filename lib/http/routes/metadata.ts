/**
 * /api/metadata: workflow and task definitions (reference/conductor.md §1.2), plus the listing
 * parameters the official UI sends (reference/ui-client-calls.md).
 */
import type { MetadataService } from '../../metadata/service.ts';
import { ValidationError } from '../../model/errors.ts';
import { emptyOk, json } from '../responses.ts';
import type { RouteDef } from '../router.ts';

export function metadataRoutes(metadata: MetadataService): RouteDef[] {
  const base = '/api/metadata';
  return [
    {
      method: 'POST',
      path: `${base}/workflow`,
      handler: async (ctx) => {
        await metadata.registerWorkflowDef(await ctx.json(), ctx.query.bool('overwrite', false));
        return emptyOk();
      },
    },
    {
      method: 'PUT',
      path: `${base}/workflow`,
      handler: async (ctx) => json(await metadata.upsertWorkflowDefs(await ctx.json())),
    },
    {
      method: 'POST',
      path: `${base}/workflow/validate`,
      handler: async (ctx) => {
        await metadata.validateWorkflowDef(await ctx.json());
        return emptyOk();
      },
    },
    {
      method: 'GET',
      path: `${base}/workflow`,
      handler: async (ctx) =>
        json(
          await metadata.listWorkflowDefs({
            name: ctx.query.string('name'),
            classifier: ctx.query.string('classifier'),
            short: ctx.query.bool('short', false),
          }),
        ),
    },
    {
      method: 'GET',
      path: `${base}/workflow/latest-versions`,
      handler: async () => json(await metadata.listWorkflowDefs({ latestOnly: true })),
    },
    {
      method: 'GET',
      path: `${base}/workflow/names-and-versions`,
      handler: async () => json(await metadata.namesAndVersions()),
    },
    {
      method: 'GET',
      path: `${base}/workflow/names`,
      handler: async () => json(Object.keys(await metadata.namesAndVersions())),
    },
    {
      method: 'GET',
      path: `${base}/workflow/{name}`,
      handler: async (ctx) =>
        json(
          await metadata.getWorkflowDef(
            ctx.params.name as string,
            ctx.query.optionalInt('version', { min: 1 }),
          ),
        ),
    },
    {
      method: 'GET',
      path: `${base}/workflow/{name}/versions`,
      handler: async (ctx) => json(await metadata.workflowVersions(ctx.params.name as string)),
    },
    {
      method: 'DELETE',
      path: `${base}/workflow/{name}/{version}`,
      handler: async (ctx) => {
        await metadata.deleteWorkflowDef(
          ctx.params.name as string,
          pathVersion(ctx.params.version as string),
        );
        return emptyOk();
      },
    },
    {
      method: 'POST',
      path: `${base}/taskdefs`,
      handler: async (ctx) => {
        await metadata.registerTaskDefs(await ctx.json());
        return emptyOk();
      },
    },
    {
      method: 'PUT',
      path: `${base}/taskdefs`,
      handler: async (ctx) => {
        await metadata.updateTaskDef(await ctx.json());
        return emptyOk();
      },
    },
    {
      method: 'GET',
      path: `${base}/taskdefs`,
      handler: async () => json(await metadata.listTaskDefs()),
    },
    {
      method: 'GET',
      path: `${base}/taskdefs/{taskType}`,
      handler: async (ctx) => json(await metadata.getTaskDef(ctx.params.taskType as string)),
    },
    {
      method: 'DELETE',
      path: `${base}/taskdefs/{taskType}`,
      handler: async (ctx) => {
        await metadata.deleteTaskDef(ctx.params.taskType as string);
        return emptyOk();
      },
    },
  ];
}

function pathVersion(raw: string): number {
  if (!/^\d+$/.test(raw)) {
    throw new ValidationError(`Version must be a positive integer, got '${raw}'`, [
      { path: 'version', message: 'must be a positive integer', invalidValue: raw },
    ]);
  }
  return Number(raw);
}
