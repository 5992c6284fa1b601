/** Which slice of a list a page shows: the page clamped to those that exist, and its [from, to). */
export function pageOf(total: number, page: number, size: number) {
  const pages = Math.max(1, Math.ceil(total / size));
  const clamped = Math.min(Math.max(0, page), pages - 1);
  return { page: clamped, pages, from: clamped * size, to: Math.min(total, (clamped + 1) * size) };
}
