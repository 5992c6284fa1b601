/**
 * The size of a function's deployment package: the bytes Lambda stores and downloads on a cold
 * start, i.e. the zip CDK uploads. Computed as a zip archive of the bundle directory is laid out
 * (each file deflated at level 9, plus its local and central directory headers), so a test and the
 * cost benchmark can measure bundles without an archiver.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';

/** Local file header (30) + central directory header (46) + the name twice; end record 22. */
const ENTRY_OVERHEAD = 30 + 46;
const END_RECORD = 22;

export interface PackageSize {
  /** Files and their uncompressed sizes. */
  files: Record<string, number>;
  unzippedBytes: number;
  zippedBytes: number;
}

export function packageSize(dir: string): PackageSize {
  const files: Record<string, number> = {};
  let unzippedBytes = 0;
  let zippedBytes = END_RECORD;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    files[name] = bytes.length;
    unzippedBytes += bytes.length;
    // A zip stores a file as it is when deflating does not make it smaller.
    const stored = Math.min(bytes.length, deflateRawSync(bytes, { level: 9 }).length);
    zippedBytes += ENTRY_OVERHEAD + 2 * Buffer.byteLength(name) + stored;
  }
  return { files, unzippedBytes, zippedBytes };
}

/** The aim for every function (issue 16): a package of at most 1 MB keeps cold starts short. */
export const MAX_PACKAGE_BYTES = 1024 * 1024;
