/** Registry reads the schema pages and pickers share. */
import { ApiError, api } from './client.ts';

/** Whether any version of a schema is registered (a 404 means none). */
export async function schemaExists(name: string): Promise<boolean> {
  try {
    await api('GET /api/schema/{name}', { params: { name } });
    return true;
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404) return false;
    throw failure;
  }
}
