/**
 * The applications capability: applications, their access keys, roles and tags (`/api/applications`)
 * in their own table. Its keys are what the API's authentication accepts besides the configured
 * ones (keyDirectory), so with the API requiring tokens every route group function reads its table
 * (authGrants): a stored key's token is checked against the key's state on every request.
 */
import type { Capability } from '../capability-contract.ts';
import { tableName } from '../store/dynamodb/tables.ts';
import type { ApplicationStore } from './ports.ts';
import { applicationRoutes } from './routes/index.ts';
import { ApplicationService, keyDirectoryOf } from './service.ts';
import { DynamoApplicationStore } from './store/dynamodb.ts';
import { MemoryApplicationStore } from './store/memory.ts';
import { APPLICATIONS_TABLE } from './tables.ts';

export interface ApplicationStores {
  applications: ApplicationStore;
}

export interface ApplicationsProvided {
  applications: ApplicationService;
}

export const applicationsCapability: Capability<ApplicationStores, ApplicationsProvided> = {
  name: 'applications',
  tables: [APPLICATIONS_TABLE],
  stores: {
    memory: () => ({ applications: new MemoryApplicationStore() }),
    embedded: (source) => ({ applications: new MemoryApplicationStore(source) }),
    dynamodb: (doc, tables) => ({
      applications: new DynamoApplicationStore(doc, tableName(tables, APPLICATIONS_TABLE)),
    }),
  },
  keyDirectory: (stores) => keyDirectoryOf(stores.applications),
  provides: (services) => ({
    applications: new ApplicationService(services.stores.applications, services.clock),
  }),
  routes: (_services, { applications }) => applicationRoutes(applications),
  apiRoutes: ['ANY /api/applications', 'ANY /api/applications/{proxy+}'],
  grants: { tables: [{ table: APPLICATIONS_TABLE, access: 'readWrite' }], sends: [] },
  authGrants: [{ table: APPLICATIONS_TABLE, access: 'read' }],
};
