/**
 * Which content types carry text. Both hosts use this one definition: node:http hands a textual
 * body to the router as the string it already is, and the Lambda adapter answers API Gateway with a
 * textual body as UTF-8 rather than base64.
 */
export const TEXTUAL_CONTENT_TYPE =
  /^(text\/|application\/(json|.*\+json|x-www-form-urlencoded|xml|javascript))/i;

export function isTextual(contentType: string | null | undefined): boolean {
  return TEXTUAL_CONTENT_TYPE.test(contentType ?? '');
}
