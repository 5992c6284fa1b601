/** The cloud assembly the `deployed` project's global setup synthesized (test/deployed/global-setup.ts). */
import { join } from 'node:path';
import { inject } from 'vitest';
import { type Assembly, STACK_NAME } from './index.ts';

export function deployedAssembly(): Assembly {
  const dir = inject('deployedAssembly');
  return { dir, templatePath: join(dir, `${STACK_NAME}.template.json`) };
}
