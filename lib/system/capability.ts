/**
 * The system capability: health (with and without the /api prefix), the version, the API document
 * and Swagger UI and, with security on, the token route. Its only data
 * access is the health check's read of the definitions table.
 */
import type { Capability } from '../capability-contract.ts';
import type { BundledModule } from '../deployment.ts';
import { BUNDLED_DIR, SWAGGER_UI_FILES } from '../http/openapi/swagger-ui.ts';
import { DEFINITIONS_TABLE } from '../store/dynamodb/tables.ts';
import { apiDocsRoutes } from './api-docs.ts';
import { systemRoutes } from './routes.ts';

/**
 * Every route of the service, for the API document (lib/runtime/route-table.ts): on AWS a file of
 * its own beside the system function's code, imported on the document's first request, since the
 * function is made of its own capabilities only and every other one is in that file.
 */
export const ROUTE_TABLE_MODULE: BundledModule = {
  entry: 'lib/runtime/route-table.ts',
  file: 'route-table.mjs',
};

export const systemCapability: Capability = {
  name: 'system',
  tables: [],
  routes: (services) => [
    ...systemRoutes({
      version: services.version,
      auth: services.auth,
      checkHealth: async () => {
        await services.stores.taskDefs.get('__health_check__');
      },
    }),
    ...apiDocsRoutes(() => services.routeTable(), {
      version: services.version,
      secured: services.auth.enabled,
    }),
  ],
  // POST /api/token always reaches the function, which answers 404 while security is off.
  apiRoutes: [
    'GET /health',
    'GET /api/health',
    'GET /api/version',
    'POST /api/token',
    'GET /api-docs',
    'GET /swagger-ui/{file}',
  ],
  // Swagger UI's page, scripts and styles, read by lib/http/openapi/swagger-ui.ts.
  assets: { package: 'swagger-ui-dist', files: Object.keys(SWAGGER_UI_FILES), into: BUNDLED_DIR },
  modules: [ROUTE_TABLE_MODULE],
  grants: { tables: [{ table: DEFINITIONS_TABLE, access: 'read' }], sends: [] },
};
