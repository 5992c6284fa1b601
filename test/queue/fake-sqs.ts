/**
 * A stand-in for the SQS client at the adapter edge (there is no usable SQS emulator for the JSON
 * protocol): records every SendMessage and answers like SQS, or fails
 * for the messages a test picks.
 */
import type {
  SendMessageCommand,
  SendMessageCommandInput,
  SendMessageCommandOutput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';

export class FakeSqsClient {
  readonly sent: SendMessageCommandInput[] = [];
  /** Messages for which this returns true are refused, as by a throttled or unreachable SQS. */
  failWhen: (input: SendMessageCommandInput) => boolean = () => false;

  async send(command: SendMessageCommand): Promise<SendMessageCommandOutput> {
    const input = command.input;
    if (this.failWhen(input)) throw new Error(`SQS refused the message for ${input.MessageBody}`);
    this.sent.push(input);
    return { MessageId: `msg-${this.sent.length}`, $metadata: { httpStatusCode: 200 } };
  }

  /** The fake typed as the client the adapter takes; it implements the one method the adapter calls. */
  asClient(): SQSClient {
    return this as unknown as SQSClient;
  }

  /** The workflow ids of the messages sent to one queue, in order. */
  workflowIdsSentTo(queueUrl: string): string[] {
    return this.sent
      .filter((input) => input.QueueUrl === queueUrl)
      .map((input) => (JSON.parse(input.MessageBody ?? '{}') as { workflowId: string }).workflowId);
  }
}

/** An SQS record as Lambda delivers it, with the given id and body. */
export function sqsRecord(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
    awsRegion: 'us-east-1',
  };
}

/** A batch of decision messages, `[messageId, workflowId]` each. */
export function decisionEvent(...messages: [messageId: string, workflowId: string][]): SQSEvent {
  return { Records: messages.map(([id, workflowId]) => sqsRecord(id, JSON.stringify({ workflowId }))) };
}
