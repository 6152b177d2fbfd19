// What the test hands the generated-client consumer (consumer.ts) and what it gives back. A file of its own
// so that the test's type check sees it while consumer.ts, which needs the generated ./openapi.js, is compiled
// only where that file is generated.

/** What the test gives the consumer: the server, and what a person does outside the API. */
export interface Harness {
  baseUrl: string;
  /** Text parts of the emails sent to `address`, oldest first. */
  mailTo(address: string): Promise<string[]>;
  /** Flags an account as an operator, as `svc accounts set-operator` does. */
  makeOperator(email: string): Promise<void>;
  /** A code of an authenticator app holding `secret`, each of a later time step than the one before. */
  totp(secret: string): string;
}

/** One request and how it was answered. */
export interface Outcome {
  operation: string;
  status: number;
  expected: number[];
  code?: string;
}
