/**
 * `npm start`: reads the configuration (`--config FILE` or ./service.properties, then the
 * environment), starts the local server, and shuts it down cleanly on SIGINT/SIGTERM. Exit codes:
 * EXIT_CODES (start-errors.ts). What the configuration warns of (an unknown `SERVICE_*` variable)
 * goes to stderr, one line each, before the server starts.
 */
import { ConfigError, loadConfig } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { localStoreKind, startLocalServer } from './local.ts';
import { EXIT_CODES, nodeTooOld, StartError } from './start-errors.ts';

function configFileArg(argv: string[]): string | undefined {
  const at = argv.indexOf('--config');
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith('--config='))?.slice('--config='.length);
}

// The command line talks to a person: plain lines on stdout and stderr, not the service logger.
const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const tooOld = nodeTooOld(process.version);
  if (tooOld) throw tooOld;
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ file: configFileArg(process.argv.slice(2)) });
  } catch (error) {
    if (error instanceof ConfigError) {
      complain(`Configuration error: ${error.message}`);
      process.exit(EXIT_CODES.configuration);
    }
    throw error;
  }
  for (const warning of config.warnings) complain(`Configuration warning: ${warning}`);
  const server = await startLocalServer(config);
  // The script sandbox starts its worker thread on first use (about half a second): start it now,
  // in the background, so the first INLINE task, SWITCH expression or DO_WHILE condition does not
  // wait for it. A failure here is the first evaluation's to report, not the start's.
  server.services.scripts.evaluate('true', {}).catch(() => undefined);
  const stop = (signal: string) => {
    say(`${signal} received, shutting down`);
    server.close().then(
      () => process.exit(EXIT_CODES.stopped),
      (error: unknown) => {
        complain(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(EXIT_CODES.cannotStart);
      },
    );
  };
  // Before saying it listens: a signal sent on reading that line finds its handler (without one,
  // Node dies of it at once, and the exit is no clean shutdown).
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  say(`Conductor-compatible service listening on ${server.url} (API at ${server.url}/api)`);
  say(`Store: ${storeLine(config)}`);
}

main().catch((error: unknown) => {
  // A capability's own check of the configuration (Capability.checkConfig) fails the start later
  // than loading it does, and is a configuration error all the same.
  if (error instanceof ConfigError) {
    complain(`Configuration error: ${error.message}`);
    process.exit(EXIT_CODES.configuration);
  }
  if (error instanceof StartError) {
    complain(error.message);
    process.exit(EXIT_CODES.cannotStart);
  }
  complain(`Failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(EXIT_CODES.cannotStart);
});

/** What the start line says of the store: its kind and, on disk, where. */
function storeLine(config: ServiceConfig): string {
  const kind = localStoreKind(config);
  const dir = config.string('service.local.data-dir');
  if (kind === 'embedded') return `embedded (${dir})`;
  if (kind === 'dynamodb' && !config.string('service.dynamodb.endpoint'))
    return `dynamodb (dynalite, ${dir})`;
  return kind;
}
