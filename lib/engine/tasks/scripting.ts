/**
 * What the scripted task types (INLINE, SWITCH, DECISION, DO_WHILE) share about scripts: which
 * evaluator names mean JavaScript. A failed evaluation reads in `reasonForIncompletion` as its
 * message (errorMessage; a ScriptError's message is written for that).
 */

/** Conductor runs both names on GraalJS (§4.8.6); here both run on the QuickJS sandbox. */
const JAVASCRIPT_EVALUATORS = new Set(['javascript', 'graaljs']);

export function isScriptEvaluator(evaluatorType: string): boolean {
  return JAVASCRIPT_EVALUATORS.has(evaluatorType);
}
