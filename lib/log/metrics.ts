/**
 * Service metrics. On AWS each measurement is one log line in CloudWatch embedded metric format
 * (EMF): CloudWatch Logs turns it into a metric in the `Conductor` namespace, with no API call
 * and no IAM permission. Locally nothing is recorded (`noMetrics`); `enabled` lets a caller skip
 * the work of gathering what it would record.
 *
 * What is recorded (README "Operations"): TasksCompleted and TasksFailed per TaskType,
 * DecideLatency, DeadLetterArrivals and MessagesDropped per Queue, WakeupsDue.
 */

export type MetricUnit = 'Count' | 'Milliseconds';

export interface Metrics {
  readonly enabled: boolean;
  /** One value of a metric, with at most a few dimensions (each a metric of its own in CloudWatch). */
  record(name: string, value: number, unit: MetricUnit, dimensions?: Record<string, string>): void;
}

export const noMetrics: Metrics = { enabled: false, record() {} };

export const METRICS_NAMESPACE = 'Conductor';

export interface EmbeddedMetricsOptions {
  /** Where lines go: the function's log stream (stdout on Lambda). */
  write?: (line: string) => void;
  now?: () => number;
  namespace?: string;
}

/** Metrics as EMF log lines (CloudWatch "Specification: Embedded metric format"). */
export function embeddedMetrics(options: EmbeddedMetricsOptions = {}): Metrics {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const namespace = options.namespace ?? METRICS_NAMESPACE;
  return {
    enabled: true,
    record(name, value, unit, dimensions = {}) {
      write(
        JSON.stringify({
          _aws: {
            Timestamp: now(),
            CloudWatchMetrics: [
              {
                Namespace: namespace,
                Dimensions: [Object.keys(dimensions)],
                Metrics: [{ Name: name, Unit: unit }],
              },
            ],
          },
          ...dimensions,
          [name]: value,
        }),
      );
    },
  };
}
