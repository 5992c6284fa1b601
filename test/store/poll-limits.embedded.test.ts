/**
 * The poll-limits contract against the embedded store (the local server's default), and again with the
 * database closed and opened before every call, so each state checked is the one read from disk.
 */
import { freshEmbeddedStores, reopeningEmbeddedStores } from '../helpers/embedded.ts';
import { pollLimitStoreContract } from './poll-limits.contract.ts';

pollLimitStoreContract('embedded', freshEmbeddedStores);
pollLimitStoreContract('embedded, reopened before every call', reopeningEmbeddedStores);
