/**
 * The Lambda host's configuration (lib/runtime/aws.ts awsConfig): the stack sets only properties
 * that exist, so a `SERVICE_*` variable that names none was added by hand or misspelt. Each is one
 * warning line in the function's JSON log at cold start, naming the closest property; under
 * service.config.strict the cold start fails instead.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config/load.ts';
import { awsConfig } from '../../lib/runtime/aws.ts';

describe('a function whose environment holds an unknown SERVICE_ variable', () => {
  it('writes one warning line naming the closest property, and configures the rest', () => {
    const lines: string[] = [];
    const { config } = awsConfig({
      env: { SERVICE_STORE: 'dynamodb', SERVICE_LOG_FORMAT: 'json', SERVICE_WORKFLOW_RETENTON: '30d' },
      write: (line) => lines.push(line),
    });

    expect(config.string('service.store')).toBe('dynamodb');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 'warn',
        message:
          'Unknown environment variable SERVICE_WORKFLOW_RETENTON: no property is read from it; the closest is service.workflow.retention (SERVICE_WORKFLOW_RETENTION)',
      }),
    ]);
  });

  it('writes nothing for an environment the stack made', () => {
    const lines: string[] = [];
    awsConfig({
      env: {
        SERVICE_STORE: 'dynamodb',
        SERVICE_DYNAMODB_TABLES_EXECUTIONS: 'x',
        SERVICE_AWS_PAYLOAD_BUCKET: 'b',
      },
      write: (line) => lines.push(line),
    });
    expect(lines).toEqual([]);
  });

  it('fails the cold start under service.config.strict', () => {
    expect(() =>
      awsConfig({
        env: { SERVICE_CONFIG_STRICT: 'true', SERVICE_SCHEDULR_ENABLED: 'true' },
        write: () => {},
      }),
    ).toThrow(ConfigError);
  });
});
