/**
 * The capabilities that check a caller's token on every request (Capability.authGrants): every
 * route group's Lambda function carries them (functions/http-handler.ts) and, when the API requires
 * tokens, is granted their tables (lib/capabilities.ts routeGroupGrants). A list of its own, like
 * lib/engine-capabilities.ts, so a function's bundle holds these and not every capability.
 * test/runtime/capabilities.test.ts checks that it names exactly the capabilities with authGrants.
 */
import { applicationsCapability } from './applications/capability.ts';
import type { Capability } from './capability-contract.ts';

export const AUTH_CAPABILITIES: readonly Capability<object, object>[] = [applicationsCapability];
