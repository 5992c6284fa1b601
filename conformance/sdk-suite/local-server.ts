/**
 * Our local server in a child process for the SDK suite: `node --import tsx lib/runtime/local-main.ts
 * --config <file>`, on a free port, its log lines written to a file. The properties file holds the
 * whole configuration and inherited SERVICE_* variables are dropped, so the run does not depend on
 * the shell it was started from or on a service.properties in the working directory.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..', '..');
const LISTENING = /listening on (http:\/\/\S+)/;

export interface LocalServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startLocalServer(options: {
  properties: Record<string, string | number | boolean>;
  configFile: string;
  logFile: string;
}): Promise<LocalServer> {
  writeFileSync(
    options.configFile,
    `${Object.entries(options.properties)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SERVICE_') && k !== 'PORT'),
  );
  const log = createWriteStream(options.logFile);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'lib/runtime/local-main.ts', '--config', options.configFile],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => fail('did not start within 60 s'), 60_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The local server ${why} (log: ${options.logFile})\n${out}`));
    }
    child.stdout.on('data', (chunk: Buffer) => {
      log.write(chunk);
      out += chunk.toString('utf8');
      const match = LISTENING.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('exit', (code) => fail(`exited with code ${code}`));
  });
  await waitForHealth(url);
  return {
    url,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      await new Promise<void>((done) => log.end(() => done()));
    },
  };
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new Error(`${url}/health did not answer 200 within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
