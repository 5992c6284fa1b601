/**
 * The narrow logger everything in lib/ writes through. Structured JSON lines on AWS (CloudWatch
 * parses them; every line carries the invocation's request id), short readable lines locally.
 * Never log request bodies, headers, query strings or signed URLs (lib/http/access-log.ts).
 * Engine events are debug lines: callers on a hot path check `debugEnabled(logger)` before they
 * build anything, so with debug off an event costs one comparison.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The lowest level written; absent on loggers that take everything (test recorders). */
  readonly level?: LogLevel;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Whether a debug line would be written: check before building the fields of one. */
export const debugEnabled = (logger: Logger): boolean =>
  logger.level === undefined || logger.level === 'debug';

export interface LoggerOptions {
  level: LogLevel;
  format: 'json' | 'text';
  write?: (line: string) => void;
  /** Fields every line carries (the request id of the running Lambda invocation). */
  context?: () => LogFields | undefined;
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const threshold = order[options.level];
  const context = options.context ?? (() => undefined);
  const emit = (level: LogLevel, message: string, fields?: LogFields): void => {
    if (order[level] < threshold) return;
    if (options.format === 'json') {
      write(JSON.stringify({ level, time: new Date().toISOString(), message, ...context(), ...fields }));
      return;
    }
    const all = { ...context(), ...fields };
    const extra = Object.keys(all).length > 0 ? ` ${JSON.stringify(all)}` : '';
    write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}${extra}`);
  };
  return {
    level: options.level,
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = { level: 'error', debug() {}, info() {}, warn() {}, error() {} };
