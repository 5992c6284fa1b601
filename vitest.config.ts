import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep parallelism modest so loopback servers and dynalite are not starved.
    maxWorkers: 2,
    env: { NODE_NO_WARNINGS: '1', AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1' },
  },
});
