/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): where the busy time went, by function (self time),
 * by module (self time), and by the service's own functions including what they call (inclusive
 * time, each function counted once per sample even when recursive). Idle time is left out.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fmt, table } from './stats.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock that process.hrtime reads (the same in every process). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the profile's clock: process.hrtime in microseconds. */
export const profileClockUs = (): number => Number(process.hrtime.bigint() / 1000n);

const REPO_URL = `file://${resolve(import.meta.dirname, '..', '..')}/`;

/** A readable place for a frame: repo-relative path, package name, or node's internal module. */
function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith(REPO_URL)) {
    const path = url.slice(REPO_URL.length);
    const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    return pkg ? `npm:${pkg[1]}` : path;
  }
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:').replace(/\/.*$/, '');
  return url;
}

export interface ProfileSummary {
  busyMs: number;
  text: string;
}

/**
 * Summarises the samples taken between `fromUs` and `toUs` (profileClockUs), or all of them. tsx
 * compiles each module to one line, so frames are named by function and file; an anonymous
 * function gets its column in the compiled module.
 */
export function summariseProfile(
  path: string,
  window: { fromUs?: number; toUs?: number } = {},
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const selfModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busyUs = 0;
  const keyOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = moduleOf(url, functionName);
    if (!url) return `${functionName || '(anonymous)'}  ${where}`;
    const at = lineNumber > 0 ? `:${lineNumber + 1}` : functionName ? '' : ` col ${columnNumber}`;
    return `${functionName || '(anonymous)'}  ${where}${at}`;
  };

  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (
      (window.fromUs !== undefined && at < window.fromUs) ||
      (window.toUs !== undefined && at > window.toUs)
    )
      continue;
    const node = byId.get(profile.samples[i] as number);
    // A sample's time is the gap to the next sample (the last one gets the previous gap).
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') continue;
    busyUs += us;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + us);
    const mod = moduleOf(node.callFrame.url, node.callFrame.functionName);
    selfModule.set(mod, (selfModule.get(mod) ?? 0) + us);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id) as ProfileNode;
      if (!frame.callFrame.url.startsWith(REPO_URL) || frame.callFrame.url.includes('/node_modules/'))
        continue;
      const k = keyOf(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }

  const rows = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => [k, fmt(us / 1000, 0), `${fmt((100 * us) / busyUs, 1)}%`]);
  const text = [
    `busy (non-idle) CPU in the profiled window: ${fmt(busyUs / 1000, 0)} ms`,
    '',
    'Self time by function:',
    table(['function  location', 'ms', 'share'], rows(self, top)),
    '',
    'Self time by module:',
    table(['module', 'ms', 'share'], rows(selfModule, top)),
    '',
    "Inclusive time of the service's own functions (lib/...):",
    table(['function  location', 'ms', 'share'], rows(inclusive, top)),
  ].join('\n');
  return { busyMs: busyUs / 1000, text };
}
