/**
 * Edits of a template copy, for tests that show what the harness catches: `withoutGrant` takes away
 * from one function's role every statement resource that names a given resource (a table, a
 * queue), as a missing grant in the stack would.
 */
import type { CfnTemplate } from './template.ts';

type Statement = { Resource?: unknown };

export function withoutGrant(
  template: CfnTemplate,
  functionPrefix: string,
  resourcePrefix: string,
): CfnTemplate {
  const copy = structuredClone(template);
  const [fnId] = Object.keys(copy.Resources).filter(
    (id) => id.startsWith(functionPrefix) && copy.Resources[id]?.Type === 'AWS::Lambda::Function',
  );
  const [resourceId] = Object.keys(copy.Resources).filter(
    (id) => id.startsWith(resourcePrefix) && copy.Resources[id]?.Type !== 'AWS::Lambda::Function',
  );
  if (!fnId || !resourceId) throw new Error(`No function ${functionPrefix}… or resource ${resourcePrefix}…`);
  const roleRef = copy.Resources[fnId]?.Properties?.Role as { 'Fn::GetAtt': string[] } | undefined;
  const role = JSON.stringify(roleRef?.['Fn::GetAtt'][0]);
  let removed = 0;
  for (const resource of Object.values(copy.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' || !JSON.stringify(resource.Properties?.Roles).includes(role))
      continue;
    const document = resource.Properties?.PolicyDocument as { Statement: Statement[] };
    document.Statement = document.Statement.flatMap((statement) => {
      const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
      const kept = resources.filter((r) => !JSON.stringify(r).includes(`"${resourceId}"`));
      removed += resources.length - kept.length;
      if (kept.length === 0) return [];
      return [{ ...statement, Resource: kept.length === 1 ? kept[0] : kept }];
    });
  }
  if (removed === 0) throw new Error(`${fnId} has no grant on ${resourceId} to remove`);
  return copy;
}
