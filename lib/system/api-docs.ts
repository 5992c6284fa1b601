/**
 * The API document and its viewer, where Conductor serves them: the OpenAPI 3.1 document at
 * /api-docs (generated from the route table, lib/http/openapi/document.ts) and Swagger UI at
 * /swagger-ui/index.html. Both are open with security on: the document holds no data, and the
 * viewer's Authorize button takes the token.
 */

import { pathParams, stringValue } from '../http/contract.ts';
import { type DocumentInfo, openApiDocument } from '../http/openapi/document.ts';
import { INITIALIZER, SWAGGER_UI_FILES, swaggerUiFile } from '../http/openapi/swagger-ui.ts';
import { json } from '../http/responses.ts';
import { type RouteDef, route } from '../http/router.ts';
import { NotFoundError, quote } from '../model/errors.ts';

/** The assets do not change within a version: browsers may keep them a day. */
const CACHE = 'public, max-age=86400';

/** `routeTable` gives every route of the service (this host's router may hold only some of them). */
export function apiDocsRoutes(
  routeTable: () => Promise<readonly RouteDef[]>,
  info: DocumentInfo,
): RouteDef[] {
  let document: Record<string, unknown> | undefined;
  return [
    route({
      method: 'GET',
      path: '/api-docs',
      summary: 'The OpenAPI 3.1 document of this API',
      responds: 'application/json',
      open: true,
      handler: async () => {
        document ??= openApiDocument(await routeTable(), info);
        return json(document);
      },
    }),
    route({
      method: 'GET',
      path: '/swagger-ui/{file}',
      summary: 'Swagger UI (index.html) and its files, showing /api-docs',
      request: {
        params: pathParams({
          file: {
            ...stringValue(
              `One of index.html, swagger-initializer.js, ${Object.keys(SWAGGER_UI_FILES).slice(1).join(', ')}`,
            ),
          },
        }),
      },
      open: true,
      handler: (ctx) => {
        const name = ctx.param('file');
        if (name === 'swagger-initializer.js') {
          return new Response(INITIALIZER, {
            headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': CACHE },
          });
        }
        const file = swaggerUiFile(name);
        if (!file) throw new NotFoundError(`No Swagger UI file ${quote(name)}`);
        return new Response(new Uint8Array(file.body), {
          headers: { 'content-type': file.contentType, 'cache-control': CACHE },
        });
      },
    }),
  ];
}
