/**
 * The narrow logger everything in lib/ writes through. Structured JSON lines on AWS (CloudWatch
 * parses them), short readable lines locally. Never log request bodies or signed URLs.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  level: LogLevel;
  format: 'json' | 'text';
  write?: (line: string) => void;
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const threshold = order[options.level];
  const emit = (level: LogLevel, message: string, fields?: LogFields): void => {
    if (order[level] < threshold) return;
    if (options.format === 'json') {
      write(JSON.stringify({ level, time: new Date().toISOString(), message, ...fields }));
      return;
    }
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}${extra}`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
