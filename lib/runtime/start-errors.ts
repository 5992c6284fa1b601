/**
 * Why the local server cannot start, in one sentence a person can act on: `npm start` prints the
 * message alone and exits 1 (lib/runtime/local-main.ts), instead of a stack trace from deep inside
 * the store or node:net.
 */
export class StartError extends Error {}

export function dataDirectoryInUse(dataDir: string): StartError {
  return new StartError(
    `The data directory ${dataDir} is already in use by another server: stop that server, or set service.local.data-dir to another directory.`,
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
