/**
 * The applications contract against the embedded store (the local server's default), and again with
 * the database closed and opened before every call, so each state checked is the one read from disk.
 */
import { freshEmbeddedStores, reopeningEmbeddedStores } from '../helpers/embedded.ts';
import { applicationStoreContract } from './applications.contract.ts';

applicationStoreContract('embedded', freshEmbeddedStores);
applicationStoreContract('embedded, reopened before every call', reopeningEmbeddedStores);
