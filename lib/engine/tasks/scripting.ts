/**
 * What the scripted task types (INLINE, SWITCH, DECISION, DO_WHILE) share about scripts: which
 * evaluator names mean JavaScript, and how a failed evaluation reads in `reasonForIncompletion`.
 */

/** Conductor runs both names on GraalJS (§4.8.6); here both run on the QuickJS sandbox. */
const JAVASCRIPT_EVALUATORS = new Set(['javascript', 'graaljs']);

export function isScriptEvaluator(evaluatorType: string): boolean {
  return JAVASCRIPT_EVALUATORS.has(evaluatorType);
}

/** The message of a failed evaluation (a ScriptError's is written for `reasonForIncompletion`). */
export function scriptFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
