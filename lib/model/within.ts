/** What `within` answers when the time ran out first. */
export const LATE: unique symbol = Symbol('late');

/**
 * Waits for `promise` at most `ms` (real time): its value, or LATE. The promise itself goes on;
 * the timer never keeps the process alive.
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, ms));
    timer.unref();
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
