/**
 * The files contract against the embedded store (the local server's default), and again with the
 * database closed and opened before every call, so each state checked is the one read from disk.
 */
import { freshEmbeddedStores, reopeningEmbeddedStores } from '../helpers/embedded.ts';
import { fileStoreContract } from './files.contract.ts';

fileStoreContract('embedded', freshEmbeddedStores);
fileStoreContract('embedded, reopened before every call', reopeningEmbeddedStores);
