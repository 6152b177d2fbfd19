/**
 * Closes what the composition root opened, in reverse order of opening, each once; a failure to close one
 * resource does not keep the others open.
 */
export class Lifecycle {
  private readonly closers: { name: string; close: () => Promise<void> }[] = [];

  /** Registers `close` to run at shutdown; returns `resource` for chaining in factories. */
  own<T>(name: string, resource: T, close: (resource: T) => Promise<void>): T {
    this.closers.push({ name, close: () => close(resource) });
    return resource;
  }

  /**
   * Starts `service` (background work) now and registers its stop to run at shutdown with the rest: work a
   * process runs while it serves starts from here, never as a side effect of being resolved.
   */
  async start<T extends { start(): void | Promise<void>; stop(): Promise<void> }>(
    name: string,
    service: T,
  ): Promise<T> {
    await service.start();
    return this.own(name, service, (owned) => owned.stop());
  }

  /** Closes everything; returns the names of resources that failed to close with their errors. */
  async closeAll(): Promise<{ name: string; error: unknown }[]> {
    const failures: { name: string; error: unknown }[] = [];
    while (this.closers.length > 0) {
      const closer = this.closers.pop();
      if (closer === undefined) break;
      try {
        await closer.close();
      } catch (error) {
        failures.push({ name: closer.name, error });
      }
    }
    return failures;
  }
}
