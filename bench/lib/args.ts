/**
 * Benchmark options: `--name=value` (or `--name value`) on the command line, else the environment
 * variable `BENCH_NAME` (upper case, dashes to underscores), else the default. A bare `--flag` is
 * true. Benchmarks are scripts, not services, so they read their own options here.
 */

export class Args {
  private readonly values = new Map<string, string>();

  constructor(
    argv: readonly string[] = process.argv.slice(2),
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i] as string;
      if (!arg.startsWith('--')) continue;
      const eq = arg.indexOf('=');
      if (eq > 0) {
        this.values.set(arg.slice(2, eq), arg.slice(eq + 1));
        continue;
      }
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        this.values.set(arg.slice(2), next);
        i++;
      } else {
        this.values.set(arg.slice(2), 'true');
      }
    }
  }

  private raw(name: string): string | undefined {
    return this.values.get(name) ?? this.env[`BENCH_${name.replace(/-/g, '_').toUpperCase()}`];
  }

  int(name: string, fallback: number, min = 0): number {
    const text = this.raw(name);
    if (text === undefined || text === '') return fallback;
    const value = Number(text.replace(/_/g, ''));
    if (!Number.isInteger(value) || value < min) {
      throw new Error(`--${name} must be an integer of at least ${min}, got '${text}'`);
    }
    return value;
  }

  /** A comma-separated list of integers of at least `min`. */
  intList(name: string, fallback: string, min = 1): number[] {
    const text = this.raw(name) || fallback;
    const values = text.split(',').map((s) => Number(s.trim().replace(/_/g, '')));
    if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < min)) {
      throw new Error(`--${name} must list integers of at least ${min}, got '${text}'`);
    }
    return values;
  }

  bool(name: string, fallback = false): boolean {
    const text = this.raw(name);
    if (text === undefined || text === '') return fallback;
    return text !== 'false' && text !== '0';
  }

  string(name: string, fallback: string): string {
    return this.raw(name) || fallback;
  }
}
