/** Where use cases report what they degrade on (a store out of reach); the server's pino logger fits it. */
export interface UseCaseLog {
  warn(details: { err: unknown }, message: string): void;
}
