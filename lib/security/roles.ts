/**
 * Roles and permissions (docs/security.md "Roles"). Every route that is not `open` declares the one
 * permission it needs next to its contract (lib/http/router.ts `RouteDef.permission`); an
 * application's roles grant permissions, and with `service.security.enabled` the router refuses a
 * caller whose roles grant none of them (403, naming the roles that would). The keys configured in
 * properties (and on AWS the Secrets Manager key) are ADMIN. With security off nothing is checked.
 *
 * The matrix below is the only place roles meet routes: a route names a permission, never a role.
 * docs/security.md shows the same table, and test/security/roles.test.ts keeps the two equal.
 */

/** What a route needs, by what it touches. */
export const PERMISSIONS = {
  'definitions:read': 'read workflow and task definitions, schemas and event handlers',
  'definitions:manage': 'create, change and delete definitions, schemas and event handlers',
  'tasks:work': 'poll tasks of any type, update them, signal them and append to their logs',
  'tasks:read': 'read a task, its logs, queue sizes and poll data',
  'runs:read': 'read runs, search runs and tasks, read event executions',
  'runs:manage': 'start, execute, test and operate runs (pause, retry, terminate, bulk...), requeue tasks',
  schedules: 'read, save, pause, resume and delete schedules',
  payloads: 'large payloads and file handles (workers and run managers move both)',
  administration: 'applications, their access keys, roles and tags; the scheduler admin routes',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

/** The roles an application may hold (Orkes' names for them). */
export const ROLES = ['ADMIN', 'USER', 'WORKER', 'METADATA_MANAGER', 'WORKFLOW_MANAGER'] as const;

export type Role = (typeof ROLES)[number];

/** Which permissions each role grants: the access matrix. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  ADMIN: ALL_PERMISSIONS,
  USER: ALL_PERMISSIONS.filter((p) => p !== 'administration'),
  WORKER: ['definitions:read', 'tasks:work', 'tasks:read', 'payloads'],
  METADATA_MANAGER: ['definitions:read', 'definitions:manage'],
  WORKFLOW_MANAGER: ['definitions:read', 'tasks:read', 'runs:read', 'runs:manage', 'schedules', 'payloads'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);
}

/** The roles that grant a permission, most specific first, ADMIN last. */
export function rolesGranting(permission: Permission): Role[] {
  const granting = ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));
  const rank = (role: Role) => (role === 'ADMIN' ? 2 : role === 'USER' ? 1 : 0);
  return granting.sort((a, b) => rank(a) - rank(b));
}

/** Whether any of these roles grants the permission. */
export function rolesGrant(roles: readonly Role[], permission: Permission): boolean {
  return roles.some((role) => ROLE_PERMISSIONS[role].includes(permission));
}

/** `A, B or C`. */
export function oneOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * Who is calling, as the token says, with the roles its key holds now (a stored key's roles are its
 * application's, read when the request is checked).
 */
export interface Principal {
  /** The access key the token was issued to. */
  readonly keyId: string;
  /** The application of a stored key; undefined for a configured key. */
  readonly applicationId?: string;
  readonly roles: readonly Role[];
}

/** The principal of a key configured in properties or held in Secrets Manager: ADMIN. */
export function configuredPrincipal(keyId: string): Principal {
  return { keyId, roles: ['ADMIN'] };
}
