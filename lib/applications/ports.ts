/**
 * The applications store port (memory, embedded and DynamoDB adapters; one contract suite,
 * test/store/applications.contract.ts). An application is one record with its keys; every write
 * but the first is conditional on the revision the writer read, so two administrators never lose
 * each other's changes. Finding an application by one of its keys is the adapter's business.
 */
import type { ApplicationRecord } from './model.ts';

export interface ApplicationStore {
  /** Writes a new application; false when its id is taken. */
  create(record: ApplicationRecord): Promise<boolean>;
  /** One application, as it is now (a consistent read). */
  get(id: string): Promise<ApplicationRecord | undefined>;
  /** Every application, by creation time. */
  list(): Promise<ApplicationRecord[]>;
  /**
   * Replaces an application when its stored revision is still `expected` (the record carries the
   * next one); false when it changed or is gone. Its keys become findable by id, and the keys it no
   * longer holds stop being findable.
   */
  replace(record: ApplicationRecord, expected: number): Promise<boolean>;
  /** Removes an application and its keys; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** The application holding an access key of this id; undefined when none does. */
  findByKey(keyId: string): Promise<ApplicationRecord | undefined>;
}
