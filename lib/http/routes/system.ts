/**
 * Service-level routes: health (with and without the /api prefix, as the SDK's legacy check uses
 * `/health`) and the version, answered as plain text (the Conductor UI shows it in its footer).
 */
import { json, text } from '../responses.ts';
import type { RouteDef } from '../router.ts';

export interface SystemInfo {
  version: string;
  /** Checks the store answers; throws when it does not. */
  checkHealth(): Promise<void>;
}

export function systemRoutes(info: SystemInfo): RouteDef[] {
  const health: RouteDef['handler'] = async () => {
    try {
      await info.checkHealth();
      return json({ healthy: true, healthResults: [], suppressedHealthResults: [] });
    } catch {
      return json({ healthy: false, healthResults: [], suppressedHealthResults: [] }, 503);
    }
  };
  return [
    {
      method: 'GET',
      path: '/health',
      summary: 'Health check (legacy path used by the SDK)',
      responds: 'application/json',
      handler: health,
    },
    {
      method: 'GET',
      path: '/api/health',
      summary: 'Health check: 503 when the store does not answer',
      responds: 'application/json',
      handler: health,
    },
    {
      method: 'GET',
      path: '/api/version',
      summary: 'The service version',
      responds: 'text/plain',
      handler: () => text(info.version),
    },
  ];
}
