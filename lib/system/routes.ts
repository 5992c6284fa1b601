/**
 * Service-level routes: health (with and without the /api prefix, as the SDK's legacy check uses
 * `/health`) and the version, answered as plain text (the Conductor UI shows it in its footer), all
 * open with security on; and, only with security on, POST /api/token (lib/security/api-auth.ts),
 * whose absence (404) tells the SDKs the server has no auth.
 */

import { objectBody, stringValue } from '../http/contract.ts';
import { json, text } from '../http/responses.ts';
import { type RouteDef, route } from '../http/router.ts';
import type { ApiAuth } from '../security/api-auth.ts';

export interface SystemInfo {
  version: string;
  /** Checks the store answers; throws when it does not. */
  checkHealth(): Promise<void>;
  auth: ApiAuth;
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
  const routes: RouteDef[] = [
    {
      method: 'GET',
      path: '/health',
      summary: 'Health check (legacy path used by the SDK)',
      responds: 'application/json',
      returns: 'Health',
      open: true,
      handler: health,
    },
    {
      method: 'GET',
      path: '/api/health',
      summary: 'Health check: 503 when the store does not answer',
      responds: 'application/json',
      returns: 'Health',
      open: true,
      handler: health,
    },
    {
      method: 'GET',
      path: '/api/version',
      summary: 'The service version',
      responds: 'text/plain',
      open: true,
      handler: () => text(info.version),
    },
  ];
  if (info.auth.enabled) routes.push(tokenRoute(info.auth));
  return routes;
}

interface TokenRequest {
  keyId: string;
  keySecret: string;
}

const tokenRoute = (auth: ApiAuth) =>
  route({
    method: 'POST',
    path: '/api/token',
    summary: 'Exchange an application key for a short-lived token to send in X-Authorization',
    request: {
      body: {
        title: 'GenerateTokenRequest',
        required: true,
        schema: {
          ...objectBody('An application key (service.security.keys[n])', {
            keyId: { ...stringValue('The key id'), minLength: 1, maxLength: 256 },
            keySecret: { ...stringValue('The key secret'), minLength: 1, maxLength: 1024 },
          }),
          required: ['keyId', 'keySecret'],
        },
      },
    },
    responds: 'application/json',
    returns: 'TokenResponse',
    open: true,
    handler: async (ctx) => {
      const { keyId, keySecret } = (await ctx.json()) as TokenRequest;
      return json({ token: await auth.token(keyId, keySecret) });
    },
  });
