/**
 * The route groups of the service, as data: which function serves which API Gateway routes, and
 * which gate (SPEC.md item 7) must be on for the group to exist. The CDK stack builds its functions
 * and routes from this table; lib/http/app.ts builds the in-process router from the same names.
 */
import type { GateName } from '../config/properties.ts';

export interface RouteGroupSpec {
  /** Also the Lambda function's name suffix and handler file (functions/<name>.ts). */
  name: RouteGroupName;
  /** API Gateway route keys served by this group's function. */
  apiRoutes: string[];
  gate?: GateName;
}

export type RouteGroupName = 'system' | 'metadata' | 'workflows' | 'tasks';

export const ROUTE_GROUPS: readonly RouteGroupSpec[] = [
  { name: 'system', apiRoutes: ['GET /health', 'GET /api/health', 'GET /api/version'] },
  { name: 'metadata', apiRoutes: ['ANY /api/metadata/{proxy+}'] },
  { name: 'workflows', apiRoutes: ['ANY /api/workflow', 'ANY /api/workflow/{proxy+}'] },
  { name: 'tasks', apiRoutes: ['ANY /api/tasks', 'ANY /api/tasks/{proxy+}'] },
];
