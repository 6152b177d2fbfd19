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
