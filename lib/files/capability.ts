/**
 * The file storage capability (docs/api.md "File record", "File storage configuration", "File API"),
 * behind `service.file-storage.enabled`: file records in their own table, bytes in the backend
 * `service.file-storage.type` picks. The configuration is read when the routes are built, i.e. at
 * start, so a wrong value (or signing without keys) stops the start naming the property.
 */
import type { Capability } from '../capability-contract.ts';
import { EXECUTIONS_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { backendOf } from './backends/index.ts';
import { ContentTransfer } from './content.ts';
import { storageTypeOf } from './model.ts';
import { MultipartUploads } from './multipart.ts';
import type { FileStores } from './ports.ts';
import { fileRoutes } from './routes/index.ts';
import { FileService } from './service.ts';
import { fileSettingsOf } from './settings.ts';
import { UrlSigner } from './signing.ts';
import { DynamoFileStore } from './store/dynamodb.ts';
import { MemoryFileStore } from './store/memory.ts';
import { FILES_TABLE } from './tables.ts';

/** Where uploaded files live in the stack's bucket (large payloads live under `payloads/`). */
export const AWS_FILES_PREFIX = 'files/';

export const filesCapability: Capability<FileStores> = {
  name: 'files',
  gate: 'fileStorage',
  tables: [FILES_TABLE],
  stores: {
    memory: () => ({ files: new MemoryFileStore() }),
    embedded: (source) => ({ files: new MemoryFileStore(source) }),
    dynamodb: (doc, tables) => ({ files: new DynamoFileStore(doc, tableName(tables, FILES_TABLE)) }),
  },
  routes: (services) => {
    const settings = fileSettingsOf(services.config);
    const signer = new UrlSigner(settings.signingKeys);
    const { backend, directory } = backendOf(settings, services.config, signer, services.clock);
    const files = new FileService({
      files: services.stores.files,
      executions: services.stores.executions,
      backend,
      storageType: storageTypeOf(settings.backend),
      clock: services.clock,
    });
    return fileRoutes({
      files,
      multipart: new MultipartUploads(files),
      content: directory && new ContentTransfer(files, directory, signer, services.clock),
    });
  },
  apiRoutes: ['ANY /api/files', 'ANY /api/files/{proxy+}'],
  grants: {
    // Creating and authorizing read runs (the owner exists; parent links for the family).
    tables: [
      { table: FILES_TABLE, access: 'readWrite' },
      { table: EXECUTIONS_TABLE, access: 'read' },
    ],
    sends: [],
    // Runs read through the store may hold large payloads.
    payloads: 'read',
  },
  aws: {
    // Presigned URLs act with the function's rights: PUT and GET of objects (UploadPart and
    // multipart create/complete are s3:PutObject), abort, all under the files prefix only.
    objects: {
      prefix: AWS_FILES_PREFIX,
      actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'],
    },
    properties: ({ bucket, region, properties }): Record<string, string> => {
      const type = properties['service.file-storage.type'] ?? 'store-a';
      if (type === 'service') {
        throw new Error(
          'service.file-storage.type=service cannot be deployed on AWS: API Gateway and Lambda cap request ' +
            'bodies near 6 MB, and the service backend needs one directory shared by every node. Use store-a ' +
            '(the default on AWS: the stack’s bucket), or store-b / store-c with their endpoint and bucket.',
        );
      }
      if (type !== 'store-a') return {};
      return {
        'service.file-storage.type': 'store-a',
        'service.file-storage.store-a.bucket': bucket,
        'service.file-storage.store-a.region': region,
        'service.file-storage.store-a.prefix': AWS_FILES_PREFIX,
      };
    },
  },
};
