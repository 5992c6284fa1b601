/**
 * The definitions contract against the embedded store (the local server's default), and again with the
 * database closed and opened before every call, so each state checked is the one read from disk.
 */
import { freshEmbeddedStores, reopeningEmbeddedStores } from '../helpers/embedded.ts';
import { definitionStoreContract } from './definitions.contract.ts';

definitionStoreContract('embedded', freshEmbeddedStores);
definitionStoreContract('embedded, reopened before every call', reopeningEmbeddedStores);
