import type { ListPipelineStore, ListSourceState, ListVersionRecord } from '@svc/domain';

/** The list pipeline's state in memory (the engine-free server and tests). */
export class MemoryListPipelineStore implements ListPipelineStore {
  private readonly states = new Map<string, ListSourceState>();
  private readonly versions = new Map<number, ListVersionRecord[]>();
  private claim: { holder: string; until: Date } | null = null;
  private finishedAt: Date | null = null;

  async sources(): Promise<ListSourceState[]> {
    return [...this.states.values()].map((state) => structuredClone(state));
  }

  async saveSource(state: ListSourceState): Promise<void> {
    this.states.set(state.sourceId, structuredClone(state));
  }

  async currentVersions(): Promise<ListVersionRecord[]> {
    return [...this.versions.values()].flatMap((versions) => {
      const newest = versions.at(-1);
      return newest === undefined ? [] : [structuredClone(newest)];
    });
  }

  async recordVersion(
    version: Omit<ListVersionRecord, 'version'>,
  ): Promise<{ record: ListVersionRecord; created: boolean }> {
    const versions = this.versions.get(version.listId) ?? [];
    const newest = versions.at(-1);
    if (newest !== undefined && newest.sha256 === version.sha256)
      return { record: structuredClone(newest), created: false };
    const record = { ...structuredClone(version), version: (newest?.version ?? 0) + 1 };
    versions.push(record);
    this.versions.set(version.listId, versions);
    return { record: structuredClone(record), created: true };
  }

  async claimRefresh(holder: string, now: Date, until: Date): Promise<boolean> {
    if (this.claim !== null && this.claim.holder !== holder && this.claim.until > now) return false;
    this.claim = { holder, until };
    return true;
  }

  async releaseRefresh(holder: string, finishedAt: Date): Promise<void> {
    if (this.claim?.holder !== holder) return;
    this.claim = null;
    this.finishedAt = finishedAt;
  }

  async lastRefresh(): Promise<Date | null> {
    return this.finishedAt;
  }
}
