/**
 * The schema registry through the official JavaScript SDK, unmodified:
 * SchemaClient registering (in place and as a new version), reading and deleting, and enforcement
 * as an SDK application meets it: a start whose input breaks its schema is refused, and a worker's
 * update whose output breaks its schema is refused and can be sent again with a valid output.
 */
import { MetadataClient, SchemaClient, WorkflowExecutor } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { ExecutionApi } from '../http/execution-api.ts';
import { type SdkClient, sdkClient } from './sdk-client.ts';

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
const api = new ExecutionApi(server);
let client: SdkClient;

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

beforeAll(async () => {
  client = await sdkClient(server.url);
});

describe('SchemaClient', () => {
  it('registers, reads every way, versions and deletes', async () => {
    const schemas = new SchemaClient(client);
    const name = uniqueName('sdk_schema');
    const data = { $schema: DRAFT_2020, type: 'object', required: ['id'] };
    await schemas.registerSchema([{ name, version: 1, type: 'JSON', data }]);
    await schemas.registerSchema([{ name, type: 'AVRO', data: { type: 'string' } } as never], true);
    expect(await schemas.getSchema(name, 1)).toMatchObject({ name, version: 1, type: 'JSON', data });
    expect(await schemas.getSchemaByName(name)).toMatchObject({ name, version: 2, type: 'AVRO' });
    const all = await schemas.getAllSchemas();
    expect(all.filter((s) => s.name === name).map((s) => s.version)).toEqual([1, 2]);
    await schemas.deleteSchema(name, 2);
    expect((await schemas.getSchemaByName(name)).version).toBe(1);
    await schemas.deleteSchemaByName(name);
    await expect(schemas.getSchemaByName(name)).rejects.toThrow();
    await expect(schemas.deleteSchemaByName(name)).rejects.toThrow();
  });
});

describe('enforcement through the SDK', () => {
  it('refuses a start whose input breaks its schema, and a worker output that breaks its schema until it is valid', async () => {
    const schemas = new SchemaClient(client);
    const metadata = new MetadataClient(client);
    const executor = new WorkflowExecutor(client);
    const input = uniqueName('sdk_in');
    const output = uniqueName('sdk_out');
    await schemas.registerSchema([
      { name: input, version: 1, type: 'JSON', data: { $schema: DRAFT_2020, required: ['customer'] } },
      {
        name: output,
        version: 1,
        type: 'JSON',
        data: { $schema: DRAFT_2020, properties: { total: { type: 'number' } }, required: ['total'] },
      },
    ]);
    const taskName = uniqueName('sdk_work');
    await metadata.registerTask({
      name: taskName,
      retryCount: 0,
      timeoutSeconds: 60,
      responseTimeoutSeconds: 30,
      outputSchema: { name: output, version: 1, type: 'JSON' },
      enforceSchema: true,
    } as never);
    const name = uniqueName('sdk_enforced');
    await metadata.registerWorkflowDef(
      {
        name,
        version: 1,
        inputSchema: { name: input, type: 'JSON' },
        tasks: [{ name: taskName, taskReferenceName: 'work', type: 'SIMPLE' }],
      } as never,
      true,
    );
    await expect(executor.startWorkflow({ name, input: { other: 1 } })).rejects.toThrow(/customer/);
    const id = await executor.startWorkflow({ name, input: { customer: 'c-1' } });
    const task = await api.pollEventually(taskName);
    await expect(executor.updateTask(task.taskId, id, 'COMPLETED', { total: 'lots' })).rejects.toThrow(
      /total/,
    );
    expect((await executor.getTask(task.taskId)).status).toBe('IN_PROGRESS');
    await executor.updateTask(task.taskId, id, 'COMPLETED', { total: 12.5 });
    await api.workflowEventually(id, 'COMPLETED');
  });
});
