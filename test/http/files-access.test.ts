/**
 * File authorization by the workflow id in the path (docs/api.md "Authentication" 4), walked as a whole
 * matrix over a three-level family (root -> child -> grandchild, linked as sub-workflows are) and
 * a stranger: mutations by the exact owner only, metadata and downloads by self, ancestors and
 * descendants, 403 for everyone else.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/server.ts';
import { complete, createFile, put, startRun } from './files-rig.ts';

const server = useTestServer({
  'service.file-storage.enabled': true,
  'service.file-storage.service.directory': mkdtempSync(join(tmpdir(), 'files-access-')),
});

type Member = 'root' | 'child' | 'grandchild' | 'stranger';
const MEMBERS: Member[] = ['root', 'child', 'grandchild', 'stranger'];

describe('file authorization matrix', () => {
  const ids = {} as Record<Member, string>;
  beforeAll(async () => {
    ids.root = await startRun(server);
    ids.child = await startRun(server, ids.root);
    ids.grandchild = await startRun(server, ids.child);
    ids.stranger = await startRun(server);
  });

  const path = (caller: Member, fileId: string, suffix = '') =>
    `${server.url}/api/files/${ids[caller]}/${fileId}${suffix}`;
  const content = (caller: Member, fileId: string) =>
    `${server.url}/api/files/content/${ids[caller]}/${fileId}`;

  for (const owner of ['root', 'child', 'grandchild'] as const) {
    it(`lets only ${owner} change its file, and its whole family read it`, async () => {
      const file = await createFile(server, ids[owner]);
      const mutations = (caller: Member) => [
        server.fetch(path(caller, file.fileId, '/upload-url')),
        put(server, content(caller, file.fileId), 'intruder'),
        server.fetch(path(caller, file.fileId, '/upload-complete'), { method: 'POST' }),
        server.fetch(path(caller, file.fileId, '/multipart'), { method: 'POST' }),
        server.fetch(path(caller, file.fileId, '/multipart/u1/part/1')),
        server.fetch(path(caller, file.fileId, '/multipart/u1'), { method: 'DELETE' }),
      ];
      for (const caller of MEMBERS.filter((m) => m !== owner)) {
        const statuses = await Promise.all(mutations(caller).map(async (r) => (await r).status));
        expect(statuses, `${caller} changing ${owner}'s file`).toEqual([403, 403, 403, 403, 403, 403]);
      }
      expect((await server.fetch(path(owner, file.fileId, '/upload-url'))).status).toBe(200);
      expect((await put(server, content(owner, file.fileId), `owned by ${owner}`)).status).toBe(204);
      // The service backend has no multipart: the owner gets past authorization to the 400.
      expect((await server.fetch(path(owner, file.fileId, '/multipart'), { method: 'POST' })).status).toBe(
        400,
      );
      expect((await complete(server, ids[owner], file.fileId)).status).toBe(200);

      for (const caller of MEMBERS) {
        const family = caller !== 'stranger';
        const expected = family ? 200 : 403;
        const reads = [
          await server.fetch(path(caller, file.fileId)),
          await server.fetch(path(caller, file.fileId, '/download-url')),
          await server.fetch(content(caller, file.fileId)),
        ];
        expect(
          reads.map((r) => r.status),
          `${caller} reading ${owner}'s file`,
        ).toEqual([expected, expected, expected]);
        if (family) expect(await reads[2]?.text()).toBe(`owned by ${owner}`);
      }
    });
  }

  it('counts siblings and cousins as outside the family', async () => {
    const sibling = await startRun(server, ids.root);
    const file = await createFile(server, ids.grandchild);
    await put(server, content('grandchild', file.fileId), 'x');
    await complete(server, ids.grandchild, file.fileId);
    const response = await server.fetch(`${server.url}/api/files/${sibling}/${file.fileId}`);
    expect(response.status).toBe(403);
  });
});
