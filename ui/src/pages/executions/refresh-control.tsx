/**
 * The execution page's refresh: a Refresh button, the Auto-refresh interval (Off, 5 s ... 60 s;
 * 30 s at first, as in Conductor's UI) and a hint saying when the run was last loaded and when the
 * next load comes. It reloads only while the run is live (RUNNING or PAUSED) and the tab is
 * visible; a tab shown again after its interval passed reloads at once. The countdown lives here,
 * so its ticking re-renders only this control, not the page.
 */
import { useEffect, useRef, useState } from 'react';
import { formatClock } from '../../logic/time.ts';

const INTERVALS = [0, 5, 10, 15, 30, 60];
const FIRST_INTERVAL = 30;

export interface RefreshControlProps {
  /** The run can still change. */
  live: boolean;
  /** A load is under way. */
  loading: boolean;
  /** When the data shown was loaded (epoch ms), 0 before the first load. */
  updatedAt: number;
  /** An action is under way: the button waits. */
  busy: boolean;
  onRefresh: () => void;
}

export function RefreshControl({ live, loading, updatedAt, busy, onRefresh }: RefreshControlProps) {
  const [seconds, setSeconds] = useState(FIRST_INTERVAL);
  const [now, setNow] = useState(Date.now);
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;
  const auto = live && seconds > 0;
  const due = updatedAt + seconds * 1000;

  useEffect(() => {
    if (!auto) return;
    const tick = () => {
      const time = Date.now();
      setNow(time);
      if (document.visibilityState === 'visible' && !loading && time >= due) refresh.current();
    };
    const timer = setInterval(tick, 1000);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [auto, due, loading]);

  let hint: string;
  if (loading) hint = 'Refreshing…';
  else if (updatedAt === 0) hint = '';
  else if (!live) hint = `Updated ${formatClock(updatedAt)}; the run is over, so no auto-refresh.`;
  else if (!auto) hint = `Updated ${formatClock(updatedAt)}; auto-refresh is off.`;
  else hint = `Updated ${formatClock(updatedAt)} · next in ${Math.max(0, Math.ceil((due - now) / 1000))} s`;

  return (
    <div className="refresh-control">
      <span className="muted" data-testid="refresh-hint" aria-live="polite">
        {hint}
      </span>
      <label>
        Auto-refresh
        <select value={seconds} disabled={!live} onChange={(e) => setSeconds(Number(e.target.value))}>
          {INTERVALS.map((s) => (
            <option key={s} value={s}>
              {s === 0 ? 'Off' : `every ${s} s`}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={onRefresh} disabled={busy || loading}>
        Refresh
      </button>
    </div>
  );
}
