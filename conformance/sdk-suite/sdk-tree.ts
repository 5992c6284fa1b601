/**
 * The official JavaScript SDK's source tree at one tag, exported once into a cache directory outside
 * the repository and its dependencies installed there once (`npm ci`); later runs reuse both.
 *
 * Source: a local git clone of conductor-oss/javascript-sdk holding the tag (`--git-dir`, else
 * CONDUCTOR_SDK_GIT_DIR), else the tag's tarball from
 * GitHub (curl). The tree is unpacked beside the cache directory and renamed into place, and a
 * marker records the source and commit; `npm ci` is redone when package-lock.json changes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const SDK_REPO = 'conductor-oss/javascript-sdk';

export interface SdkTree {
  dir: string;
  tag: string;
  /** `git <dir>` or the tarball's URL. */
  source: string;
  /** The tag's commit when known (git source). */
  commit?: string;
  /** What this run had to do: nothing, export, install or both. */
  prepared: { exported: boolean; installed: boolean; ms: number };
}

interface ExportMarker {
  tag: string;
  source: string;
  commit?: string;
}

export function prepareSdkTree(options: {
  tag: string;
  cacheDir: string;
  /** Only this clone is looked at (an empty string: none, so the tarball is downloaded). */
  gitDir?: string;
  /** The tarball's URL instead of GitHub's (a mirror, or a file:// URL). */
  tarballUrl?: string;
  log: (line: string) => void;
}): SdkTree {
  const started = Date.now();
  const { tag, cacheDir, log } = options;
  const exportMarker = join(cacheDir, '.sdk-suite-export.json');
  const installMarker = join(cacheDir, '.sdk-suite-npm-ci');
  let exported = false;
  let installed = false;

  if (!existsSync(exportMarker)) {
    const partial = `${cacheDir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    const candidates = options.gitDir !== undefined ? [options.gitDir] : [process.env.CONDUCTOR_SDK_GIT_DIR];
    const gitDir = candidates.find((dir): dir is string => !!dir && hasTag(dir, tag));
    let marker: ExportMarker;
    if (gitDir) {
      log(`Exporting ${SDK_REPO} ${tag} from the git clone ${gitDir} into ${cacheDir}`);
      const commit = git(gitDir, ['rev-parse', `${tag}^{commit}`]).trim();
      const archive = execFileSync('git', ['-C', gitDir, 'archive', '--format=tar', tag], {
        maxBuffer: 1 << 30,
      });
      execFileSync('tar', ['-x', '-C', partial], { input: archive });
      marker = { tag, source: `git ${gitDir}`, commit };
    } else {
      const url = options.tarballUrl ?? `https://codeload.github.com/${SDK_REPO}/tar.gz/refs/tags/${tag}`;
      log(`Downloading ${url} into ${cacheDir}`);
      const tarball = `${cacheDir}.tar.gz.partial`;
      // curl is on every CI image; node's fetch would need the whole body in memory too.
      const curl = spawnSync('curl', ['-fsSL', '--retry', '3', '-o', tarball, url], { stdio: 'inherit' });
      if (curl.status !== 0) throw new Error(`Downloading ${url} failed (curl exit ${curl.status})`);
      execFileSync('tar', ['-xz', '--strip-components=1', '-C', partial, '-f', tarball]);
      const commit = tarCommit(tarball);
      rmSync(tarball, { force: true });
      marker = { tag, source: url, ...(commit ? { commit } : {}) };
    }
    writeFileSync(join(partial, '.sdk-suite-export.json'), `${JSON.stringify(marker, null, 2)}\n`);
    renameSync(partial, cacheDir);
    exported = true;
  }
  const marker = JSON.parse(readFileSync(exportMarker, 'utf8')) as ExportMarker;
  if (marker.tag !== tag) throw new Error(`${cacheDir} holds ${marker.tag}, not ${tag}: remove it`);

  const lockHash = createHash('sha256')
    .update(readFileSync(join(cacheDir, 'package-lock.json')))
    .digest('hex');
  if (!existsSync(installMarker) || readFileSync(installMarker, 'utf8').trim() !== lockHash) {
    log(`Installing the SDK's dependencies (npm ci) in ${cacheDir}`);
    // --ignore-scripts: nothing the suite runs needs an install script (ts-jest compiles the
    // sources), and none of a third party's scripts run on this machine.
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: cacheDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (npm.status !== 0) throw new Error(`npm ci in ${cacheDir} failed (exit ${npm.status})`);
    writeFileSync(installMarker, `${lockHash}\n`);
    installed = true;
  }
  return {
    dir: cacheDir,
    tag,
    source: marker.source,
    ...(marker.commit ? { commit: marker.commit } : {}),
    prepared: { exported, installed, ms: Date.now() - started },
  };
}

/** The commit GitHub (and `git archive`) record in a tarball's pax header, when git is at hand. */
function tarCommit(tarball: string): string | undefined {
  try {
    // The pax header is the first block; git reads no further (more input would only hit EPIPE).
    const head = gunzipSync(readFileSync(tarball)).subarray(0, 4096);
    const id = execFileSync('git', ['get-tar-commit-id'], { input: head, encoding: 'utf8' }).trim();
    return /^[0-9a-f]{40}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function hasTag(gitDir: string, tag: string): boolean {
  if (!existsSync(gitDir)) return false;
  try {
    git(gitDir, ['rev-parse', '--verify', '--quiet', `${tag}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['-C', gitDir, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
