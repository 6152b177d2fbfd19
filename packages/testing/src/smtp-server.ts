import { SMTPServer } from 'smtp-server';

/** What the SMTP server received: envelope recipients and the raw message. */
export interface ReceivedMail {
  to: string[];
  data: string;
}

/** A running test SMTP server. */
export interface TestSmtpServer {
  port: number;
  /** Every message accepted so far, in order. */
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that accepts every message without authentication or TLS and
 * keeps it; port 0 picks a free one. Mail tests deliver to it through the real SMTP transport.
 */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString('latin1');
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP server has no TCP port');
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
