/**
 * /api/applications (docs/api.md "Applications"), as the official SDK's ApplicationClient calls it:
 * applications, their access keys, roles and tags. Every route needs the administration
 * permission (the ADMIN role) when security is on; with it off they are open like every route, and
 * the keys made then take effect once security is switched on.
 */
import type { RouteDef } from '../../http/router.ts';
import type { ApplicationService } from '../service.ts';
import {
  applicationByKey,
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  updateApplication,
} from './applications.ts';
import { createAccessKey, deleteAccessKey, listAccessKeys, toggleAccessKey } from './keys.ts';
import { addRole, removeRole } from './roles.ts';
import { applicationTagRoutes } from './tags.ts';

export function applicationRoutes(apps: ApplicationService): RouteDef[] {
  return [
    createApplication(apps),
    listApplications(apps),
    applicationByKey(apps),
    getApplication(apps),
    updateApplication(apps),
    deleteApplication(apps),
    createAccessKey(apps),
    listAccessKeys(apps),
    toggleAccessKey(apps),
    deleteAccessKey(apps),
    addRole(apps),
    removeRole(apps),
    ...applicationTagRoutes(apps),
  ];
}
