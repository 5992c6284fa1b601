/** A logger that keeps every line it is given, as a real JSON logger would write it. */
import { createLogger, type Logger, type LogLevel } from '../../lib/log/logger.ts';

export interface Captured {
  logger: Logger;
  /** Every line written, parsed. */
  lines(): Record<string, unknown>[];
  /** Everything written, as one text: for checks that a value appears nowhere. */
  text(): string;
}

export function captureLogs(level: LogLevel = 'debug'): Captured {
  const written: string[] = [];
  const logger = createLogger({ level, format: 'json', write: (line) => written.push(line) });
  return {
    logger,
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => written.join('\n'),
  };
}
