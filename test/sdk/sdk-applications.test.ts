/**
 * The official JavaScript SDK's ApplicationClient, unmodified, against a local server: with
 * security on, signed in with the configured (ADMIN) key, it manages applications, access keys,
 * roles and tags as the SDK's own integration suite does; keys it makes sign SDK clients in with
 * their application's roles (a WORKER runs a worker, a WORKFLOW_MANAGER starts the run, neither may
 * do the other's job), and a key it disables stops its client at once. With security off (the SDK
 * suite's setting) the same calls work without credentials.
 */
import {
  ApplicationClient,
  MetadataClient,
  simpleTask,
  type Tag,
  WorkflowExecutor,
  workflow,
} from '@io-orkes/conductor-javascript';
import { describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { collectingLogger, completedWithOkWorker, sdkClient } from './sdk-client.ts';

const ADMIN_KEY = { keyId: 'sdk-admin', keySecret: 'sdk-admin-secret-0123456789' };

/** What the SDK suite's ApplicationClient tests do, in one pass. */
async function applicationLifecycle(apps: ApplicationClient): Promise<void> {
  const created = await apps.createApplication(uniqueName('sdk-app'));
  expect(created).toMatchObject({ id: expect.any(String), createdBy: expect.any(String) });
  expect(typeof created.createTime).toBe('number');
  expect((await apps.getAllApplications()).some((a) => a.id === created.id)).toBe(true);
  expect((await apps.getApplication(created.id)).name).toBe(created.name);
  const renamed = await apps.updateApplication(created.id, `${created.name}-renamed`);
  expect(renamed).toMatchObject({ id: created.id, name: `${created.name}-renamed` });

  const key = await apps.createAccessKey(created.id);
  expect(typeof key.secret).toBe('string');
  const keys = await apps.getAccessKeys(created.id);
  expect(keys).toEqual([{ id: key.id, createdAt: expect.any(Number), status: 'ACTIVE' }]);
  expect(await apps.toggleAccessKeyStatus(created.id, key.id)).toMatchObject({
    id: key.id,
    status: 'INACTIVE',
  });
  expect((await apps.getAppByAccessKeyId(key.id)).id).toBe(created.id);

  await apps.addApplicationRole(created.id, 'WORKER');
  await apps.removeRoleFromApplicationUser(created.id, 'WORKER');
  await expect(apps.addApplicationRole(created.id, 'APPLICATION_MANAGER')).rejects.toThrow(
    /Role must be one of/,
  );

  const tags: Tag[] = [
    { key: 'k1', value: 'v1' },
    { key: 'k2', value: 'v2' },
  ];
  await apps.addApplicationTags(created.id, tags);
  await apps.addApplicationTag(created.id, { key: 'k3', value: 'v3' });
  await apps.deleteApplicationTag(created.id, tags[0] as Tag);
  await apps.deleteApplicationTags(created.id, [tags[1] as Tag]);
  expect(await apps.getApplicationTags(created.id)).toEqual([{ key: 'k3', value: 'v3' }]);

  await apps.deleteAccessKey(created.id, key.id);
  await expect(apps.deleteAccessKey(created.id, key.id)).rejects.toThrow();
  await expect(apps.toggleAccessKeyStatus(created.id, 'no-such-key')).rejects.toThrow();
  await apps.deleteApplication(created.id);
  await expect(apps.getApplication(created.id)).rejects.toThrow();
  await expect(apps.deleteApplication(created.id)).rejects.toThrow();
  await expect(apps.createAccessKey(created.id)).rejects.toThrow();
  await expect(apps.getAppByAccessKeyId(key.id)).rejects.toThrow();
  await expect(apps.createApplication('')).rejects.toThrow();
}

describe('ApplicationClient with security on', () => {
  // Node only: the SDK talks to a real URL with its own fetch.
  const server = useTestServer(
    {
      'service.security.enabled': true,
      'service.security.keys[0].id': ADMIN_KEY.keyId,
      'service.security.keys[0].secret': ADMIN_KEY.keySecret,
    },
    { transport: 'node' },
  );

  it('manages applications, keys, roles and tags with the configured (ADMIN) key', async () => {
    const client = await sdkClient(server.url, ADMIN_KEY);
    await applicationLifecycle(new ApplicationClient(client));
  });

  it("signs SDK clients in with the keys it makes, each with its application's roles", async () => {
    const apps = new ApplicationClient(await sdkClient(server.url, ADMIN_KEY));
    const keyWith = async (role: 'WORKER' | 'WORKFLOW_MANAGER' | 'METADATA_MANAGER') => {
      const app = await apps.createApplication(uniqueName(role.toLowerCase()));
      await apps.addApplicationRole(app.id, role);
      const key = await apps.createAccessKey(app.id);
      return { app, key, client: await sdkClient(server.url, { keyId: key.id, keySecret: key.secret }) };
    };
    const definer = await keyWith('METADATA_MANAGER');
    const manager = await keyWith('WORKFLOW_MANAGER');
    const runner = await keyWith('WORKER');

    const taskName = uniqueName('sdk_role_task');
    const name = uniqueName('sdk_role_wf');
    await new MetadataClient(definer.client).registerWorkflowDef(
      {
        ...workflow(name, [simpleTask('only', taskName, {})]),
        outputParameters: { ok: ref('only.output.ok') },
      },
      true,
    );
    // A worker may not start runs, a run manager may not change definitions: 403 naming the roles.
    await expect(new WorkflowExecutor(runner.client).startWorkflow({ name, version: 1 })).rejects.toThrow(
      /needs the role WORKFLOW_MANAGER, USER or ADMIN/,
    );
    await expect(
      new MetadataClient(manager.client).registerWorkflowDef(workflow(uniqueName('nope'), []), true),
    ).rejects.toThrow(/needs the role METADATA_MANAGER, USER or ADMIN/);

    const executor = new WorkflowExecutor(manager.client);
    const id = await executor.startWorkflow({ name, version: 1, input: {} });
    const log = collectingLogger();
    const run = await completedWithOkWorker(runner.client, executor, id, taskName, log.logger);
    expect(run.output).toEqual({ ok: true });
    expect(log.errors).toEqual([]);

    // Disabled, the manager's key stops at once: its client (whose token is still fresh) is refused.
    await apps.toggleAccessKeyStatus(manager.app.id, manager.key.id);
    await expect(executor.getWorkflow(id, false)).rejects.toThrow();
  });
});

describe('ApplicationClient with security off (the SDK suite runs so)', () => {
  const server = useTestServer({}, { transport: 'node' });

  it('manages applications, keys, roles and tags without credentials', async () => {
    await applicationLifecycle(new ApplicationClient(await sdkClient(server.url)));
  });
});
