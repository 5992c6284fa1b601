/**
 * The local server in a child process (`node --import tsx lib/runtime/local-main.ts`, in-memory
 * store, free port), so the load generator and the server each have their own event loop and the
 * figures include real HTTP over loopback. CPU time and peak memory of the child are read from
 * /proc (Linux); with `cpuProf` the child writes a V8 CPU profile when it exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface ChildServer {
  url: string;
  pid: number;
  /** performance.now() just before the spawn, and when the server printed its listening line. */
  spawnedAt: number;
  listeningAt: number;
  /** User + system CPU time of the server process so far, in ms (undefined off Linux). */
  cpuMs(): number | undefined;
  /** Of that, the system (kernel) time: socket reads and writes, mostly. */
  systemCpuMs(): number | undefined;
  /** Peak resident memory of the server process so far, in MB (undefined off Linux). */
  peakRssMb(): number | undefined;
  /** Resident memory of the server process now (VmRSS), in MB (undefined off Linux). */
  rssMb(): number | undefined;
  /** SIGINT (the server's clean shutdown), then the path of the CPU profile if one was asked for. */
  stop(): Promise<string | undefined>;
}

const REPO = resolve(import.meta.dirname, '..', '..');
const LISTENING = /listening on (http:\/\/\S+)/;

export async function startChildServer(
  options: {
    cpuProfDir?: string /** Overrides of the server's environment (another store). */;
    env?: Record<string, string>;
  } = {},
): Promise<ChildServer> {
  const nodeArgs = options.cpuProfDir
    ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`, '--cpu-prof-interval=500']
    : [];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'lib/runtime/local-main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: '0',
      SERVICE_SERVER_PORT: '0',
      SERVICE_STORE: 'memory',
      SERVICE_LOG_LEVEL: 'warn',
      SERVICE_INSTANCE_ID: 'bench',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await listeningUrl(child);
  const listeningAt = performance.now();
  const pid = child.pid as number;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    url,
    pid,
    spawnedAt,
    listeningAt,
    cpuMs: () => procCpuMs(pid),
    systemCpuMs: () => procCpuMs(pid, 'system'),
    peakRssMb: () => procStatusMb(pid, 'VmHWM'),
    rssMb: () => procStatusMb(pid, 'VmRSS'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      if (!options.cpuProfDir) return undefined;
      // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread (tsx's
      // loader runs in a thread of its own).
      const main = readdirSync(options.cpuProfDir).find(
        (f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.0.`),
      );
      return main && join(options.cpuProfDir, main);
    },
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('the server did not start within 30 s')), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${out}${err}`));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = LISTENING.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    });
    // Warnings and errors of the server go to the bench's stderr.
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      process.stderr.write(`[server] ${chunk.toString('utf8')}`);
    });
    child.once('exit', (code) => fail(new Error(`the server exited with code ${code}`)));
  });
}

/** utime + stime of a process, from /proc/<pid>/stat (clock ticks, 100 per second on Linux). */
function procCpuMs(pid: number, part: 'both' | 'system' = 'both'): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')':
    // utime is the 14th field of the line, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const system = Number(fields[12]);
    const ticks = part === 'system' ? system : Number(fields[11]) + system;
    return (ticks * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** A memory figure of /proc/<pid>/status (VmHWM: peak resident, VmRSS: resident now), in MB. */
function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
