/**
 * The exit codes of `npm start` (lib/runtime/local-main.ts), as docs/operations.md and the README
 * state them (test/runtime/start-failures.test.ts runs each; readme.test.ts keeps the texts true).
 */
export const EXIT_CODES = {
  /** Stopped by SIGINT or SIGTERM, after a clean shutdown. */
  stopped: 0,
  /** A start that cannot work (a StartError's sentence, or `Failed to start: ...`), or a failed shutdown. */
  cannotStart: 1,
  /** A configuration error (`Configuration error: ...`, naming the property or variable). */
  configuration: 2,
} as const;

/**
 * Why the local server cannot start, in one sentence a person can act on: `npm start` prints the
 * message alone and exits EXIT_CODES.cannotStart (1; lib/runtime/local-main.ts), instead of a stack
 * trace from deep inside the store or node:net.
 */
export class StartError extends Error {}

/**
 * The oldest Node.js major the service runs on: Lambda runs every function on Node.js 22, and the
 * tests run what Lambda runs (package.json `engines` says the same; a test keeps them in step).
 */
export const MINIMUM_NODE_MAJOR = 22;

/** A Node.js older than MINIMUM_NODE_MAJOR (`version` as in process.version), or undefined. */
export function nodeTooOld(version: string): StartError | undefined {
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  if (major >= MINIMUM_NODE_MAJOR) return undefined;
  return new StartError(
    `Node.js ${version} is too old: the service needs Node.js ${MINIMUM_NODE_MAJOR} or newer. Run npm ci, which installs the project's own Node.js ${MINIMUM_NODE_MAJOR} for npm's scripts, then npm start; or install Node.js ${MINIMUM_NODE_MAJOR} or newer.`,
  );
}

export function dataDirectoryInUse(dataDir: string): StartError {
  return new StartError(
    `The data directory ${dataDir} is already in use by another server: stop that server, or set service.local.data-dir to another directory.`,
  );
}

/** The data directory holds only data of the earlier default store (dynalite). */
export function earlierStoreFound(dataDir: string, earlier: string): StartError {
  return new StartError(
    `The data directory ${dataDir} holds data of the earlier default store (dynalite, in ${earlier}), which the embedded store does not read: start with SERVICE_STORE=dynamodb (service.store=dynamodb) to keep using it, or set service.local.data-dir to another directory to start empty.`,
  );
}

/** The embedded store's files cannot be read. */
export function storeDamaged(dir: string, error: Error): StartError {
  return new StartError(
    `The embedded store in ${dir} cannot be opened (${error.message.replace(/^The store at \S+ cannot be opened \((.*)\)$/, '$1')}): restore it from a backup, or set service.local.data-dir to another directory to start empty.`,
  );
}

/** The answer to a failed listen, when its cause is one a person can fix; the error itself otherwise. */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new StartError(
      `Port ${port} on ${host} is already in use: stop the process using it, or set service.server.port (or PORT) to another port.`,
    );
  }
  if (code === 'EACCES') {
    return new StartError(
      `Port ${port} on ${host} needs privileges this process lacks: set service.server.port (or PORT) above 1023.`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new StartError(
      `Cannot listen on ${host}: set service.server.host to an address of this machine (127.0.0.1 by default).`,
    );
  }
  return error;
}
