/**
 * Large payloads over HTTP (lib/payloads): the ExternalStorageLocation routes of the workflow and
 * task APIs (docs/conductor-compat.md §1.1, §1.6: `{uri, path}`), and the local server's own payload
 * route that a local location's URI points at (on AWS the URI is a presigned S3 URL instead).
 * They live with the workflows capability, whose function serves /api/workflow/payloads; the tasks
 * routes add the location routes under /api/tasks from here.
 */

import { type BodyContract, objectBody, paramsOf, pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json, jsonText } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { PAYLOAD_TYPES, type PayloadType } from '../../payloads/keys.ts';
import { LOCAL_PAYLOAD_ROUTE, type PayloadLocations } from '../../payloads/locations.ts';
import type { PayloadOperation } from '../../payloads/ports.ts';

const LOCATION_QUERY = paramsOf(
  {
    path: stringValue('READ: the stored payload path; WRITE: empty for a new location'),
    operation: { type: 'string', enum: ['READ', 'WRITE'], description: 'READ or WRITE' },
    payloadType: { type: 'string', enum: [...PAYLOAD_TYPES], description: PAYLOAD_TYPES.join(', ') },
  },
  ['operation', 'payloadType'],
);

const locationRoute = (path: string, payloads: PayloadLocations) =>
  route({
    method: 'GET',
    path,
    permission: 'payloads',
    summary: 'Where to write (or read) a large payload: {uri, path}',
    request: { query: LOCATION_QUERY },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await payloads.location(
          {
            operation: ctx.query.string('operation') as PayloadOperation,
            payloadType: ctx.query.string('payloadType') as PayloadType,
            path: ctx.query.string('path'),
          },
          ctx.url.origin,
        ),
      ),
  });

/** `base` is `/api/workflow` or `/api/tasks`; both spellings Conductor accepts. */
export function storageLocationRoutes(base: string, payloads: PayloadLocations): RouteDef[] {
  return [
    locationRoute(`${base}/externalstoragelocation`, payloads),
    locationRoute(`${base}/external-storage-location`, payloads),
  ];
}

const PAYLOAD_PARAMS = pathParams({
  namespace: stringValue('The kind of payload (sha256, task-output, ...)'),
  file: stringValue('The payload file name'),
});

const PAYLOAD_BODY: BodyContract = {
  title: 'payload',
  required: true,
  schema: objectBody('The payload: a JSON object'),
};

/** The local URI of a location: GET reads a payload, PUT uploads to an upload location. */
export function localPayloadRoutes(payloads: PayloadLocations): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: `${LOCAL_PAYLOAD_ROUTE}/{namespace}/{file}`,
      permission: 'payloads',
      summary: 'Read a stored payload (the URI of a READ location)',
      request: { params: PAYLOAD_PARAMS },
      responds: 'application/json',
      handler: async (ctx) => jsonText(await payloads.read(`${ctx.param('namespace')}/${ctx.param('file')}`)),
    }),
    route({
      method: 'PUT',
      path: `${LOCAL_PAYLOAD_ROUTE}/{namespace}/{file}`,
      permission: 'payloads',
      summary: 'Upload a payload (the URI of a WRITE location)',
      request: { params: PAYLOAD_PARAMS, body: PAYLOAD_BODY },
      handler: async (ctx) => {
        await payloads.write(`${ctx.param('namespace')}/${ctx.param('file')}`, await ctx.text());
        return emptyOk();
      },
    }),
  ];
}
