import type { CredentialStore, NodeCredentials } from './credentials.js';

/**
 * The credentials of a running agent: loaded from the store at start, changed as the token rotates and
 * profiles apply, and saved after each change, one save at a time (a file store writes aside, then renames).
 */
export class AgentCredentials {
  private credentials: NodeCredentials | null = null;
  private saving: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: CredentialStore) {}

  /** Loads the credentials; throws when the node has none (it must enrol first). */
  async load(): Promise<NodeCredentials> {
    this.credentials = await this.store.load();
    if (this.credentials === null) throw new Error('no node credentials: enrol first (enrolNode)');
    return this.credentials;
  }

  /** The credentials in force; throws before {@link load}. */
  current(): NodeCredentials {
    if (this.credentials === null) throw new Error('the agent has not started');
    return this.credentials;
  }

  /** Changes the credentials in force, then saves them as they are now, after any save in progress. */
  update(change: Partial<NodeCredentials>): Promise<void> {
    this.credentials = { ...this.current(), ...change };
    const saved = this.saving.then(() => this.store.save(this.current()));
    this.saving = saved.catch(() => undefined);
    return saved;
  }
}
