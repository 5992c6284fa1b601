/**
 * Configuration loading: defaults, environment mapping (including indexed list keys), the
 * properties file, precedence between sources, and start-stopping validation errors that name the
 * property at fault.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  configOf,
  editDistance,
  envNameOf,
  loadConfig,
  parseProperties,
  unknownServiceVariables,
} from '../../lib/config/load.ts';

const SIGNING_KEYS = 'service.file-storage.service.signing.keys';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'config-test-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `service.properties` (or `name`) into the test's temp dir and returns its path. */
function writeProperties(lines: string[], name = 'service.properties'): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Loads with only the given environment and the test's temp dir as working directory. */
const load = (env: Record<string, string | undefined> = {}) => loadConfig({ env, cwd: dir });

/** The ConfigError a load throws; fails the test when it does not throw one. */
function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but loading succeeded');
}

describe('defaults', () => {
  it('applies the documented defaults when nothing is set', () => {
    const config = load();

    expect(config.number('service.server.port')).toBe(8080);
    expect(config.string('service.server.host')).toBe('127.0.0.1');
    expect(config.boolean('service.scheduler.enabled')).toBe(true);
    expect(config.boolean('service.workflow-message-queue.enabled')).toBe(false);
    expect(config.number('service.workflow-message-queue.maxQueueSize')).toBe(1000);
    expect(config.boolean('service.file-storage.enabled')).toBe(false);
    expect(config.number('service.file-storage.service.max-size')).toBe(104_857_600);
    expect(config.string('service.store')).toBe('embedded');
    expect(config.string('service.dynamodb.table-prefix')).toBe('conductor-');
  });

  it('leaves properties without a default unset', () => {
    const config = load();

    expect(config.has('service.dynamodb.endpoint')).toBe(false);
    expect(config.string('service.dynamodb.endpoint')).toBeUndefined();
    expect(config.list(SIGNING_KEYS)).toEqual([]);
  });

  it('defaults the instance id to the host name', () => {
    expect(load().string('service.instance-id')).toBe(hostname());
    expect(load({ SERVICE_INSTANCE_ID: 'node-7' }).string('service.instance-id')).toBe('node-7');
  });

  it('configOf gives the defaults plus the given values, ignoring the process environment', () => {
    const config = configOf({ 'service.store': 'memory', 'service.server.port': 0 });

    expect(config.string('service.store')).toBe('memory');
    expect(config.number('service.server.port')).toBe(0);
    expect(config.boolean('service.scheduler.enabled')).toBe(true);
  });
});

describe('envNameOf', () => {
  it.each([
    ['service.scheduler.enabled', 'SERVICE_SCHEDULER_ENABLED'],
    ['service.server.port', 'SERVICE_SERVER_PORT'],
    ['service.file-storage.enabled', 'SERVICE_FILE_STORAGE_ENABLED'],
    ['service.workflow-message-queue.maxQueueSize', 'SERVICE_WORKFLOW_MESSAGE_QUEUE_MAXQUEUESIZE'],
    ['service.file-storage.service.signing.keys[0].id', 'SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_0_ID'],
    [
      'service.file-storage.service.signing.keys[12].secret',
      'SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_12_SECRET',
    ],
  ])('maps %s to %s', (property, env) => {
    expect(envNameOf(property)).toBe(env);
  });
});

describe('environment variables', () => {
  it('turn a gate off', () => {
    const config = load({ SERVICE_SCHEDULER_ENABLED: 'false' });

    expect(config.boolean('service.scheduler.enabled')).toBe(false);
    expect(config.gate('scheduler')).toBe(false);
  });

  it('turn a gate on, accepting booleans in any case', () => {
    const config = load({
      SERVICE_WORKFLOW_MESSAGE_QUEUE_ENABLED: 'TRUE',
      SERVICE_FILE_STORAGE_ENABLED: 'True',
    });

    expect(config.gate('messageQueue')).toBe(true);
    expect(config.gate('fileStorage')).toBe(true);
  });

  it('set camelCase properties through their upper-cased name, converted to numbers', () => {
    const config = load({ SERVICE_WORKFLOW_MESSAGE_QUEUE_MAXQUEUESIZE: '5' });

    expect(config.number('service.workflow-message-queue.maxQueueSize')).toBe(5);
  });

  it('set string and enum properties', () => {
    const config = load({
      SERVICE_STORE: 'memory',
      SERVICE_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      SERVICE_LOG_LEVEL: 'debug',
    });

    expect(config.string('service.store')).toBe('memory');
    expect(config.string('service.dynamodb.endpoint')).toBe('http://127.0.0.1:8000');
    expect(config.string('service.log.level')).toBe('debug');
  });

  it('set indexed list keys, read back as entries in index order', () => {
    const config = load({
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_1_ID: 'second',
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_0_ID: 'first',
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_0_SECRET: 'secret-0',
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_1_SECRET: 'secret-1',
    });

    expect(config.list(SIGNING_KEYS)).toEqual([
      { id: 'first', secret: 'secret-0' },
      { id: 'second', secret: 'secret-1' },
    ]);
    expect(config.string(`${SIGNING_KEYS}[1].id`)).toBe('second');
  });

  it('order list entries by numeric index, not text', () => {
    const config = load({
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_10_ID: 'ten',
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_2_ID: 'two',
    });

    expect(config.list(SIGNING_KEYS).map((entry) => entry.id)).toEqual(['two', 'ten']);
  });

  it('count as absent when empty', () => {
    writeProperties(['service.server.port=9000']);

    const config = load({
      SERVICE_SERVER_PORT: '',
      SERVICE_SCHEDULER_ENABLED: '',
      SERVICE_STORE: '',
      PORT: '',
      SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_0_ID: '',
    });

    expect(config.number('service.server.port')).toBe(9000);
    expect(config.boolean('service.scheduler.enabled')).toBe(true);
    expect(config.string('service.store')).toBe('embedded');
    expect(config.list(SIGNING_KEYS)).toEqual([]);
  });

  it('that name no property are ignored', () => {
    const config = load({ SERVICE_NOT_A_PROPERTY: 'x', HOME: '/root', PATH: '/usr/bin' });

    expect(config.has('service.not-a-property')).toBe(false);
    expect(config.number('service.server.port')).toBe(8080);
  });
});

describe('PORT', () => {
  it('sets the server port', () => {
    expect(load({ PORT: '3000' }).number('service.server.port')).toBe(3000);
  });

  it('loses to SERVICE_SERVER_PORT', () => {
    expect(load({ PORT: '3000', SERVICE_SERVER_PORT: '4000' }).number('service.server.port')).toBe(4000);
  });

  it('beats the properties file', () => {
    writeProperties(['service.server.port=9000']);

    expect(load({ PORT: '3000' }).number('service.server.port')).toBe(3000);
  });

  it('is validated like the property it sets', () => {
    expect(configErrorOf(() => load({ PORT: 'http' })).message).toContain('service.server.port');
  });
});

describe('properties file', () => {
  it('is read from service.properties in the working directory', () => {
    writeProperties([
      '# a comment',
      '! another comment',
      '',
      'service.scheduler.enabled=false',
      'service.workflow-message-queue.maxQueueSize : 42',
      '  service.dynamodb.endpoint = http://localhost:8000/path?a=b  ',
    ]);

    const config = load();

    expect(config.gate('scheduler')).toBe(false);
    expect(config.number('service.workflow-message-queue.maxQueueSize')).toBe(42);
    expect(config.string('service.dynamodb.endpoint')).toBe('http://localhost:8000/path?a=b');
  });

  it('is read from an explicit path, instead of the working directory file', () => {
    writeProperties(['service.server.port=9000']);
    mkdirSync(join(dir, 'conf'));
    const explicit = writeProperties(['service.log.level=warn'], join('conf', 'custom.properties'));

    const config = loadConfig({ env: {}, cwd: dir, file: explicit });

    expect(config.string('service.log.level')).toBe('warn');
    expect(config.number('service.server.port')).toBe(8080);
  });

  it('given explicitly but missing stops the start with a ConfigError naming it', () => {
    const missing = join(dir, 'nope.properties');

    const error = configErrorOf(() => loadConfig({ env: {}, cwd: dir, file: missing }));

    expect(error.message).toContain(missing);
  });

  it('is optional in the working directory', () => {
    expect(load().number('service.server.port')).toBe(8080);
  });

  it('sets indexed list keys', () => {
    writeProperties([`${SIGNING_KEYS}[0].id=from-file`, `${SIGNING_KEYS}[0].secret=file-secret`]);

    expect(load().list(SIGNING_KEYS)).toEqual([{ id: 'from-file', secret: 'file-secret' }]);
  });

  it('with an unknown property stops the start with a ConfigError naming it', () => {
    writeProperties(['service.server.port=9000', 'service.no-such.thing=1']);

    expect(configErrorOf(() => load()).message).toContain('service.no-such.thing');
  });

  it('with a line that is not key=value stops the start', () => {
    writeProperties(['service.server.port 9000']);

    expect(configErrorOf(() => load()).message).toContain('service.server.port 9000');
  });

  it('with an invalid value stops the start with a ConfigError naming the property', () => {
    writeProperties(['service.scheduler.enabled=maybe']);

    expect(configErrorOf(() => load()).message).toContain('service.scheduler.enabled');
  });
});

describe('precedence', () => {
  it('is environment over properties file over defaults', () => {
    writeProperties(['service.server.port=9000', 'service.log.level=warn', 'service.store=memory']);

    const config = load({ SERVICE_SERVER_PORT: '7000' });

    expect(config.number('service.server.port')).toBe(7000);
    expect(config.string('service.log.level')).toBe('warn');
    expect(config.string('service.store')).toBe('memory');
    expect(config.string('service.log.format')).toBe('text');
  });

  it('merges list entries field by field across sources', () => {
    writeProperties([`${SIGNING_KEYS}[0].id=file-id`, `${SIGNING_KEYS}[0].secret=file-secret`]);

    const config = load({ SERVICE_FILE_STORAGE_SERVICE_SIGNING_KEYS_0_SECRET: 'env-secret' });

    expect(config.list(SIGNING_KEYS)).toEqual([{ id: 'file-id', secret: 'env-secret' }]);
  });

  it('puts explicit overrides above the environment', () => {
    const config = loadConfig({
      env: { SERVICE_SERVER_PORT: '7000' },
      cwd: dir,
      overrides: { 'service.server.port': 0 },
    });

    expect(config.number('service.server.port')).toBe(0);
  });
});

describe('validation', () => {
  it.each([
    ['SERVICE_SCHEDULER_ENABLED', 'yes', 'service.scheduler.enabled'],
    ['SERVICE_WORKFLOW_MESSAGE_QUEUE_MAXQUEUESIZE', 'abc', 'service.workflow-message-queue.maxQueueSize'],
    ['SERVICE_WORKFLOW_MESSAGE_QUEUE_MAXQUEUESIZE', '1.5', 'service.workflow-message-queue.maxQueueSize'],
    ['SERVICE_WORKFLOW_MESSAGE_QUEUE_MAXQUEUESIZE', '0', 'service.workflow-message-queue.maxQueueSize'],
    ['SERVICE_SERVER_PORT', '70000', 'service.server.port'],
    ['SERVICE_SERVER_PORT', '-1', 'service.server.port'],
    ['SERVICE_STORE', 'postgres', 'service.store'],
  ])('rejects %s=%s with a ConfigError naming %s', (variable, value, property) => {
    const error = configErrorOf(() => load({ [variable]: value }));

    expect(error.message).toContain(property);
    expect(error.message).toContain(value);
    expect(error.name).toBe('ConfigError');
  });

  it('accepts the boundaries of a range', () => {
    expect(load({ SERVICE_SERVER_PORT: '65535' }).number('service.server.port')).toBe(65535);
    expect(load({ SERVICE_SERVER_PORT: '0' }).number('service.server.port')).toBe(0);
  });

  it('rejects an override naming no property', () => {
    const error = configErrorOf(() => configOf({ 'service.not.real': true }));

    expect(error.message).toContain('service.not.real');
  });

  it('rejects an invalid override value', () => {
    expect(configErrorOf(() => configOf({ 'service.store': 'postgres' })).message).toContain('service.store');
  });
});

describe('gates', () => {
  it('follow their enabling properties', () => {
    const defaults = configOf();
    expect(defaults.gate('scheduler')).toBe(true);
    expect(defaults.gate('fileStorage')).toBe(false);
    expect(defaults.gate('messageQueue')).toBe(false);
    expect(defaults.gate('agents')).toBe(false);

    const switched = configOf({
      'service.scheduler.enabled': false,
      'service.integrations.ai.enabled': true,
    });
    expect(switched.gate('scheduler')).toBe(false);
    expect(switched.gate('agents')).toBe(true);
  });
});

describe('parseProperties', () => {
  it('reads key=value and key: value lines, skipping comments and blank lines, with CRLF', () => {
    const parsed = parseProperties('# c\r\n! c\r\n\r\na.b=1\r\nc.d: two words\r\ne.f=x=y:z\r\ng.h=\r\n');

    expect([...parsed]).toEqual([
      ['a.b', '1'],
      ['c.d', 'two words'],
      ['e.f', 'x=y:z'],
      ['g.h', ''],
    ]);
  });

  it('keeps the last of repeated keys', () => {
    expect(parseProperties('a=1\na=2').get('a')).toBe('2');
  });

  it('rejects a line without a key', () => {
    expect(() => parseProperties('=value')).toThrow(ConfigError);
  });
});

describe('unknown SERVICE_ environment variables', () => {
  it('are a warning naming the closest property, and the start goes on', () => {
    const config = load({ SERVICE_SCHEDULR_ENABLED: 'false', SERVICE_STORE: 'memory' });

    expect(config.warnings).toEqual([
      'Unknown environment variable SERVICE_SCHEDULR_ENABLED: no property is read from it; the closest is service.scheduler.enabled (SERVICE_SCHEDULER_ENABLED)',
    ]);
    // Nothing is read from it: the scheduler keeps its default.
    expect(config.boolean('service.scheduler.enabled')).toBe(true);
    expect(config.string('service.store')).toBe('memory');
  });

  it('name the closest list entry or table variable, index kept', () => {
    const config = load({
      SERVICE_SECURITY_KEYS_1_SECERT: 'x',
      SERVICE_DYNAMODB_TABLE_DEFINITIONS: 'defs',
    });

    expect(config.warnings).toEqual([
      'Unknown environment variable SERVICE_DYNAMODB_TABLE_DEFINITIONS: no property is read from it; the closest is service.dynamodb.tables.{table} (SERVICE_DYNAMODB_TABLES_DEFINITIONS)',
      'Unknown environment variable SERVICE_SECURITY_KEYS_1_SECERT: no property is read from it; the closest is service.security.keys[n].secret (SERVICE_SECURITY_KEYS_1_SECRET)',
    ]);
  });

  it('leave out every variable a property reads: plain, list entries, table names, empty values', () => {
    const config = load({
      SERVICE_SCHEDULER_ENABLED: 'false',
      SERVICE_SECURITY_KEYS_0_ID: 'k',
      SERVICE_SECURITY_KEYS_0_SECRET: '0123456789abcdef',
      SERVICE_DYNAMODB_TABLES_DEFINITIONS: 'defs',
      SERVICE_INSTANCE_ID: '',
      PORT: '9000',
      NOT_SERVICE_X: '1',
      service_lowercase: '1',
    });

    expect(config.warnings).toEqual([]);
  });

  it('stop the start under service.config.strict, from the environment or a properties file', () => {
    const error = configErrorOf(() =>
      load({ SERVICE_CONFIG_STRICT: 'true', SERVICE_SCHEDULR_ENABLED: 'true' }),
    );
    expect(error.message).toBe(
      'Unknown environment variable SERVICE_SCHEDULR_ENABLED: no property is read from it; the closest is service.scheduler.enabled (SERVICE_SCHEDULER_ENABLED) (service.config.strict is on: fix or remove it)',
    );

    writeProperties(['service.config.strict=true']);
    expect(() => load({ SERVICE_SERVER_PROT: '9000' })).toThrow(
      /SERVICE_SERVER_PROT.*closest is service.server.port/,
    );
    // Strict with nothing unknown starts as usual.
    expect(load({ SERVICE_SERVER_PORT: '9000' }).number('service.server.port')).toBe(9000);
  });

  it('are counted by name against the properties table given', () => {
    expect(unknownServiceVariables({ SERVICE_SCHEDULER_ENABLED: 'true', SERVICE_X: '1' })).toEqual([
      { name: 'SERVICE_X', closest: expect.objectContaining({ property: expect.any(String) }) },
    ]);
    expect(unknownServiceVariables({ SERVICE_A_B: '1' }, [])).toEqual([
      { name: 'SERVICE_A_B', closest: undefined },
    ]);
  });

  it('editDistance counts single-character edits', () => {
    expect(editDistance('SCHEDULR', 'SCHEDULER')).toBe(1);
    expect(editDistance('', 'ABC')).toBe(3);
    expect(editDistance('KITTEN', 'SITTING')).toBe(3);
    expect(editDistance('SAME', 'SAME')).toBe(0);
  });
});
