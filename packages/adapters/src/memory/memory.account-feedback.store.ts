import type {
  ClientErrorRecord,
  ClientErrorRepository,
  FeedbackRecord,
  FeedbackRepository,
  PreferencesRepository,
  RecentPage,
  StoredPreferences,
} from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/** A newest-first page of rows with numeric ids, as the PostgreSQL adapter answers it (operator views). */
function recentPage<T extends { id: string; createdAt: Date }>(rows: readonly T[], query: RecentPage): T[] {
  const { after } = query;
  return structuredClone(
    rows
      .filter((row) => row.createdAt >= query.since)
      .filter(
        (row) =>
          after === null ||
          row.createdAt < after.createdAt ||
          (row.createdAt.getTime() === after.createdAt.getTime() && Number(row.id) < Number(after.id)),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || Number(b.id) - Number(a.id))
      .slice(0, query.limit),
  );
}

interface AccountFeedbackState {
  preferences: Map<string, StoredPreferences>;
  clientErrors: Array<ClientErrorRecord & { id: string }>;
  feedback: Array<FeedbackRecord & { id: string }>;
  nextId: number;
}

/** Account preferences, dashboard error reports and feedback of an engine-free server. */
export class MemoryAccountFeedbackStore implements Snapshottable {
  private state: AccountFeedbackState = { preferences: new Map(), clientErrors: [], feedback: [], nextId: 1 };

  snapshot(): unknown {
    return structuredClone(this.state);
  }

  restore(snapshot: unknown): void {
    this.state = snapshot as AccountFeedbackState;
  }

  preferences(): PreferencesRepository {
    return {
      find: async (accountId) => structuredClone(this.state.preferences.get(accountId) ?? {}),
      save: async (accountId, preferences) => {
        this.state.preferences.set(accountId, structuredClone(preferences));
      },
    };
  }

  clientErrors(): ClientErrorRepository {
    return {
      insert: async (report, purgeBefore) => {
        this.state.clientErrors = this.state.clientErrors.filter((row) => row.createdAt >= purgeBefore);
        const id = String(this.state.nextId++);
        this.state.clientErrors.push({ ...structuredClone(report), id });
        return id;
      },
      latest: async (limit) => structuredClone(this.state.clientErrors.slice(-limit).reverse()),
      page: async (query) => recentPage(this.state.clientErrors, query),
    };
  }

  feedback(): FeedbackRepository {
    return {
      insert: async (feedback) => {
        const id = String(this.state.nextId++);
        this.state.feedback.push({ ...structuredClone(feedback), id });
        return id;
      },
      latest: async (limit) => structuredClone(this.state.feedback.slice(-limit).reverse()),
      page: async (query) => recentPage(this.state.feedback, query),
      byAccount: async (accountId) =>
        structuredClone(this.state.feedback.filter((row) => row.accountId === accountId)),
    };
  }
}
