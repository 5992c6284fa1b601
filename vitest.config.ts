import { defineConfig } from 'vitest/config';

/**
 * HTTP suites that run over node:http only (the `lambda` project leaves them out):
 * - body-limit: the limit is enforced while reading the socket, chunked bodies included;
 * - metadata-encoded-names: API Gateway decodes the path, so a name with an encoded '/' cannot be
 *   addressed through Lambda (an AWS limitation);
 * - persistence, restart-mid-workflow: they restart the local server on its on-disk store;
 * - http-edge: raw sockets reach node's own parser; it builds its Lambda events by hand;
 * - router, lambda-adapter, api-gateway-transport, responses: they start no server (they call the
 *   router, the adapter, the test-side API Gateway emulation and the web object builders directly);
 * - static-ui: the management UI is served by the node host only (CloudFront on AWS).
 * The SDK suite is node only too: it lives outside test/http and talks to a real URL.
 */
const NODE_ONLY_HTTP = [
  'test/http/body-limit.test.ts',
  'test/http/metadata-encoded-names.test.ts',
  'test/http/persistence.test.ts',
  'test/http/restart-mid-workflow.test.ts',
  'test/http/router.test.ts',
  'test/http/http-edge.test.ts',
  'test/http/lambda-adapter.test.ts',
  'test/http/api-gateway-transport.test.ts',
  'test/http/responses.test.ts',
  'test/http/static-ui.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep parallelism modest so loopback servers and dynalite are not starved.
    maxWorkers: 2,
    env: { NODE_NO_WARNINGS: '1' },
    // Every suite runs in `node`; the HTTP suites run again in `lambda`, where useTestServer()
    // (test/helpers/server.ts) sends their requests through the API Gateway Lambda adapter, and in
    // `embedded`, where its servers keep their data in the embedded store.
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/ui/browser/**', 'test/deployed/**'],
          provide: { transport: 'node' },
        },
      },
      // Browser end-to-end tests of the UI: one shared Chromium (test/ui/global-setup.ts), and the
      // UI built first when ui/dist is stale.
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['test/ui/browser/**/*.test.ts'],
          globalSetup: ['test/ui/global-setup.ts'],
          provide: { transport: 'node' },
        },
      },
      // The stack as deployed, run from its synthesized template (test/deployed/harness): one
      // `cdk synth` shared by the project's suites (test/deployed/global-setup.ts).
      {
        extends: true,
        test: {
          name: 'deployed',
          include: ['test/deployed/**/*.test.ts'],
          globalSetup: ['test/deployed/global-setup.ts'],
          provide: { transport: 'node' },
        },
      },
      {
        extends: true,
        test: {
          name: 'lambda',
          include: ['test/http/*.test.ts'],
          exclude: NODE_ONLY_HTTP,
          provide: { transport: 'lambda' },
        },
      },
      // The HTTP and official-SDK suites once more over the local server's default store, the
      // embedded one (each server on its own temporary data directory); the others use memory.
      {
        extends: true,
        test: {
          name: 'embedded',
          include: ['test/http/*.test.ts', 'test/sdk/*.test.ts'],
          exclude: NODE_ONLY_HTTP,
          provide: { transport: 'node', store: 'embedded' },
        },
      },
    ],
  },
});
