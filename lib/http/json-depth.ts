/**
 * How deeply a JSON text nests, measured on the text itself in one loop (no recursion), so a body
 * nested 100,000 levels is refused before JSON.parse builds it and before anything walks or
 * re-serialises it (JSON.stringify and structured clones recurse and overflow the stack).
 */

/** True when the JSON text opens more than `max` arrays/objects inside one another. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** How deeply a parsed value nests (iterative; stops as soon as it passes `max`). */
export function valueNestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
