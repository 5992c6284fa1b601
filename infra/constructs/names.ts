/**
 * Construct ids from the names used in lib/ tables (route groups, table ids, route keys). Construct
 * ids become CloudFormation logical ids, so they must stay stable as long as the name does.
 */

/** `'metadata'` -> `Metadata`, `'file-storage'` -> `FileStorage`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** `'ANY /api/metadata/{proxy+}'` -> `AnyApiMetadataProxy`: one id per route key. */
export function routeId(key: string): string {
  return pascalCase(key.toLowerCase());
}
