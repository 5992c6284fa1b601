/**
 * `npm start`: reads the configuration (`--config FILE` or ./service.properties, then the
 * environment), starts the local server, and shuts it down cleanly on SIGINT/SIGTERM.
 */
import { ConfigError, loadConfig } from '../config/load.ts';
import { startLocalServer } from './local.ts';

function configFileArg(argv: string[]): string | undefined {
  const at = argv.indexOf('--config');
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith('--config='))?.slice('--config='.length);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ file: configFileArg(process.argv.slice(2)) });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const server = await startLocalServer(config);
  console.log(`Conductor-compatible service listening on ${server.url} (API at ${server.url}/api)`);
  console.log(
    `Store: ${config.string('service.store')}${config.string('service.store') === 'dynamodb' && !config.string('service.dynamodb.endpoint') ? ` (embedded, ${config.string('service.local.data-dir')})` : ''}`,
  );
  const stop = (signal: string) => {
    console.log(`${signal} received, shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
