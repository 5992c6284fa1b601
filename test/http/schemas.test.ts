/**
 * /api/schema over both transports (docs/api.md "Schema registry", "Schema record"): every route's
 * success, versions in place and new, the short listing, 404s naming the schema, and the answers
 * to malformed, mistyped and oversized input.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { type Json, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, jsonRequest, pathsOf, useTestServer } from '../helpers/server.ts';
import { expectEmptyOk, expectJson } from './execution-api.ts';

const START = Date.UTC(2026, 0, 1);
const clock = new ManualClock(START);
const server = useTestServer({ 'service.instance-id': 'schema-test-node' }, { clock });

const send = (method: string, path: string, body?: unknown) =>
  server.fetch(`${server.url}/api/schema${path}`, jsonRequest(method, body));
const get = (path: string) => server.fetch(`${server.url}/api/schema${path}`);
const enc = encodeURIComponent;

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const jsonSchema = (name: string, extra: Json = {}): Json => ({
  name,
  type: 'JSON',
  data: { $schema: DRAFT_2020, type: 'object', properties: { id: { type: 'string' } } },
  ...extra,
});

interface SchemaShape {
  name: string;
  version: number;
  type: string;
  data?: Json;
  externalRef?: unknown;
  createTime: number;
  updateTime: number;
}

describe('POST and GET /api/schema', () => {
  it('registers one record at version 1 with server times, and reads it back without audit users', async () => {
    const name = uniqueName('order');
    await expectEmptyOk(
      await send('POST', '', { ...jsonSchema(name), createTime: 5, createdBy: 'me', updatedBy: 'me' }),
    );
    const stored = await expectJson<SchemaShape>(await get(`/${enc(name)}`));
    expect(stored).toEqual({ ...jsonSchema(name), version: 1, createTime: START, updateTime: START });
    expect(await expectJson<SchemaShape>(await get(`/${enc(name)}/1`))).toEqual(stored);
  });

  it('registers an array, keeps externalRef exactly as sent, and stores AVRO and PROTOBUF unchanged', async () => {
    const name = uniqueName('mixed');
    const avro = { type: 'record', name: 'User', fields: [{ name: 'id', type: 'long' }] };
    const ref = { uri: 'https://example.invalid/schemas/user.proto', checksum: [1, 2, 3] };
    await expectEmptyOk(
      await send('POST', '', [
        { name, version: 1, type: 'AVRO', data: avro },
        { name, version: 2, type: 'PROTOBUF', externalRef: ref },
      ]),
    );
    expect(await expectJson<SchemaShape>(await get(`/${enc(name)}/1`))).toMatchObject({
      type: 'AVRO',
      data: avro,
    });
    const second = await expectJson<SchemaShape>(await get(`/${enc(name)}`));
    expect(second).toMatchObject({ version: 2, type: 'PROTOBUF', externalRef: ref });
    expect(second).not.toHaveProperty('data');
  });

  it('overwrites in place keeping createTime, and newVersion=true stores at highest + 1', async () => {
    const name = uniqueName('versions');
    await expectEmptyOk(await send('POST', '', jsonSchema(name, { version: 4 })));
    clock.advance(1000);
    await expectEmptyOk(
      await send('POST', '?newVersion=false', jsonSchema(name, { version: 4, type: 'AVRO' })),
    );
    const replaced = await expectJson<SchemaShape>(await get(`/${enc(name)}/4`));
    expect(replaced).toMatchObject({ type: 'AVRO', createTime: START, updateTime: START + 1000 });
    await expectEmptyOk(await send('POST', '?newVersion=true', jsonSchema(name, { version: 1 })));
    expect((await expectJson<SchemaShape>(await get(`/${enc(name)}`))).version).toBe(5);
    expect((await expectJson<SchemaShape>(await get(`/${enc(name)}/4`))).type).toBe('AVRO');
  });

  it('lists every version of every schema, and short=true gives only name, version and zero times', async () => {
    const name = uniqueName('listed');
    await expectEmptyOk(await send('POST', '', [jsonSchema(name), jsonSchema(name, { version: 2 })]));
    const all = await expectJson<SchemaShape[]>(await get(''));
    expect(all.filter((s) => s.name === name).map((s) => s.version)).toEqual([1, 2]);
    expect(all.find((s) => s.name === name)?.data).toBeDefined();
    const short = await expectJson<Json[]>(await get('?short=true'));
    expect(short.filter((s) => s.name === name)).toEqual([
      { name, version: 1, createTime: 0, updateTime: 0 },
      { name, version: 2, createTime: 0, updateTime: 0 },
    ]);
  });

  it('answers 200 for a JSON schema without $schema (it validates nothing, README)', async () => {
    const name = uniqueName('loose');
    await expectEmptyOk(
      await send('POST', '', { name, type: 'JSON', data: { type: 'object', required: ['x'] } }),
    );
    expect((await expectJson<SchemaShape>(await get(`/${enc(name)}`))).data).toEqual({
      type: 'object',
      required: ['x'],
    });
  });

  it('answers 404 naming the schema when nothing matches', async () => {
    const name = uniqueName('absent');
    const latest = await errorBody(await get(`/${enc(name)}`), 404);
    expect(latest.message).toContain(name);
    await expectEmptyOk(await send('POST', '', jsonSchema(name)));
    const version = await errorBody(await get(`/${enc(name)}/7`), 404);
    expect(version.message).toContain(name);
    expect(version.message).toContain('7');
  });
});

describe('DELETE /api/schema', () => {
  it('deletes one version, then all versions, and answers 404 when nothing is left', async () => {
    const name = uniqueName('doomed');
    await expectEmptyOk(await send('POST', '', [jsonSchema(name), jsonSchema(name, { version: 2 })]));
    await expectEmptyOk(await send('DELETE', `/${enc(name)}/2`));
    expect((await errorBody(await send('DELETE', `/${enc(name)}/2`), 404)).message).toContain(name);
    expect((await expectJson<SchemaShape>(await get(`/${enc(name)}`))).version).toBe(1);
    await expectEmptyOk(await send('POST', '', jsonSchema(name, { version: 3 })));
    await expectEmptyOk(await send('DELETE', `/${enc(name)}`));
    expect((await errorBody(await get(`/${enc(name)}`), 404)).message).toContain(name);
    expect((await errorBody(await send('DELETE', `/${enc(name)}`), 404)).message).toContain(name);
  });
});

describe('bad input', () => {
  const invalid = async (body: unknown, path: string, query = '') => {
    const error = await errorBody(await send('POST', query, body), 400);
    expect(error.message).toMatch(/^The schema definition is not valid/);
    expect(error.instance).toBe('schema-test-node');
    expect(pathsOf(error)).toContain(path);
    return error;
  };

  it('refuses malformed JSON', async () => {
    const error = await errorBody(await send('POST', '', '{"name": "x", "type": '), 400);
    expect(error.message).toMatch(/JSON/i);
  });

  it('refuses an unknown or missing type', async () => {
    await invalid({ name: 'x', type: 'XML', data: {} }, 'type');
    await invalid({ name: 'x', data: {} }, 'type');
  });

  it('refuses data that is not a JSON object', async () => {
    await invalid({ name: 'x', type: 'JSON', data: [1, 2] }, 'data');
    await invalid({ name: 'x', type: 'JSON', data: 'text' }, 'data');
  });

  it('refuses version 0, -1 and 1.5, and a blank or missing name', async () => {
    for (const version of [0, -1, 1.5, '2']) await invalid({ name: 'x', type: 'JSON', version }, 'version');
    await invalid({ type: 'JSON' }, 'name');
    await invalid({ name: '  ', type: 'JSON' }, 'name');
    await invalid(
      [
        { name: 'first_ok', type: 'JSON' },
        { name: 'bad', type: 'JSON', version: 0 },
      ],
      '[1].version',
    );
    // Nothing of a refused array is stored.
    await errorBody(await get('/first_ok'), 404);
  });

  it('refuses a body that is not a record or a list of them', async () => {
    await invalid([], 'body');
    await invalid(42, 'body');
    await invalid([1], '[0]');
    expect((await errorBody(await send('POST', ''), 400)).message).toMatch(/required/);
  });

  it('refuses a JSON schema its draft does not accept, and a $schema naming no supported draft', async () => {
    const bad = await errorBody(
      await send('POST', '', {
        name: 'bad_draft',
        type: 'JSON',
        data: { $schema: DRAFT_2020, type: 'bogus' },
      }),
      400,
    );
    expect(bad.message).toMatch(/Invalid JSON schema bad_draft/);
    const old = await errorBody(
      await send('POST', '', {
        name: 'old',
        type: 'JSON',
        data: { $schema: 'http://json-schema.org/draft-04/schema#' },
      }),
      400,
    );
    expect(old.message).toMatch(/draft-07, 2019-09 or 2020-12/);
  });

  it('refuses a 2 MB schema body with 413', async () => {
    const data = { $schema: DRAFT_2020, description: 'x'.repeat(2 * 1024 * 1024) };
    const error = await errorBody(await send('POST', '', { name: 'huge', type: 'JSON', data }), 413);
    expect(error.message).toMatch(/limit is 262144/);
  });

  it('answers bad query and path values with 400', async () => {
    expect((await errorBody(await send('POST', '?newVersion=maybe', jsonSchema('q')), 400)).message).toMatch(
      /newVersion/,
    );
    expect((await errorBody(await get('?short=yes'), 400)).message).toMatch(/short/);
    for (const version of ['0', '-1', '1.5', 'abc']) {
      expect((await errorBody(await get(`/x/${version}`), 400)).message).toMatch(/positive integer/);
    }
    expect((await errorBody(await get(`/${'n'.repeat(5000)}`), 404)).message).toMatch(/characters\)/);
  });
});
