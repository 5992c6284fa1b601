/**
 * The run's tasks on a time axis, one row per task in run order: a light stretch for the time it
 * waited in the queue (scheduled to started), a bar coloured by status for the time it ran, and
 * its duration. A bar is a button: choosing it opens the task in the task panel.
 */
import { formatDateTime, formatDuration } from '../../logic/time.ts';
import { layoutTimeline, type RunTask } from './run-tasks.ts';

const pct = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;

export interface TimelineProps {
  tasks: RunTask[];
  selectedId?: string;
  onSelect: (task: RunTask) => void;
}

export function TimelineView({ tasks, selectedId, onSelect }: TimelineProps) {
  const timeline = layoutTimeline(tasks);
  if (timeline.bars.length === 0) return <p className="muted">No task has been scheduled yet.</p>;
  return (
    <figure className="timeline" aria-label="Timeline">
      <figcaption className="muted">
        From {formatDateTime(timeline.from)} to {formatDateTime(timeline.to)} (
        {formatDuration(timeline.to - timeline.from)}); the light part of a bar is the wait in the queue.
      </figcaption>
      <div className="timeline-row timeline-axis" aria-hidden="true">
        <span />
        <div className="timeline-track">
          {timeline.ticks.map((t) => (
            <span key={t.offset} className="timeline-tick" style={{ left: pct(t.at) }}>
              +{formatDuration(t.offset)}
            </span>
          ))}
        </div>
        <span />
      </div>
      {timeline.bars.map((bar) => {
        const { task } = bar;
        const label = `${task.referenceTaskName} ${task.status}, ran ${formatDuration(bar.duration)}${
          bar.queueWait ? ` after ${formatDuration(bar.queueWait)} in the queue` : ''
        }`;
        return (
          <div
            key={task.taskId}
            className={task.taskId === selectedId ? 'timeline-row selected' : 'timeline-row'}
          >
            <span className="timeline-name" title={task.referenceTaskName}>
              {task.referenceTaskName}
            </span>
            <div className="timeline-track">
              <span
                className="timeline-queue"
                style={{ left: pct(bar.queued), width: pct(bar.start - bar.queued) }}
              />
              <button
                type="button"
                aria-label={label}
                title={`${label}\nstarted ${formatDateTime(task.startTime)}, ended ${formatDateTime(task.endTime)}`}
                className={`timeline-bar status-${task.status}`}
                style={{ left: pct(bar.start), width: pct(bar.end - bar.start) }}
                onClick={() => onSelect(task)}
              />
            </div>
            <span className="timeline-duration">{formatDuration(bar.duration)}</span>
          </div>
        );
      })}
    </figure>
  );
}
