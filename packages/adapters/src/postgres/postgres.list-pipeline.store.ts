import type {
  ListPipelineStore,
  ListSourceState,
  ListVersionRecord,
  SourceCompileFacts,
  StoredArtifact,
} from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

interface SourceRow {
  source_id: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  artifact: (StoredArtifact & SourceCompileFacts) | null;
  checked_at: Date | null;
  status: ListSourceState['status'];
  http_status: number | null;
  error: string | null;
  failures: number;
  ok_at: Date | null;
  changed_at: Date | null;
}

interface VersionRow {
  list_id: number;
  version: number;
  sha256: string;
  size_bytes: string;
  entries: number;
  exceptions: number;
  sources: { id: string; sha256: string }[];
  compiled_at: Date;
}

function stateOf(row: SourceRow): ListSourceState {
  return {
    sourceId: row.source_id,
    url: row.url,
    validators: { etag: row.etag, lastModified: row.last_modified },
    artifact: row.artifact,
    checkedAt: row.checked_at,
    status: row.status,
    httpStatus: row.http_status,
    error: row.error,
    failures: row.failures,
    okAt: row.ok_at,
    changedAt: row.changed_at,
  };
}

function versionOf(row: VersionRow): ListVersionRecord {
  return {
    listId: row.list_id,
    version: row.version,
    sha256: row.sha256,
    size: Number(row.size_bytes),
    entries: row.entries,
    exceptions: row.exceptions,
    sources: row.sources,
    compiledAt: row.compiled_at,
  };
}

/** The list pipeline's state on PostgreSQL (0020_list_pipeline.sql). */
export class PostgresListPipelineStore implements ListPipelineStore {
  constructor(private readonly db: Queryable) {}

  async sources(): Promise<ListSourceState[]> {
    const rows = await this.db.query<SourceRow>('SELECT * FROM list_sources ORDER BY source_id');
    return rows.rows.map(stateOf);
  }

  async saveSource(state: ListSourceState): Promise<void> {
    await this.db.query(
      `INSERT INTO list_sources (source_id, url, etag, last_modified, artifact, checked_at, status, http_status,
         error, failures, ok_at, changed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (source_id) DO UPDATE SET url = EXCLUDED.url, etag = EXCLUDED.etag,
         last_modified = EXCLUDED.last_modified, artifact = EXCLUDED.artifact, checked_at = EXCLUDED.checked_at,
         status = EXCLUDED.status, http_status = EXCLUDED.http_status, error = EXCLUDED.error,
         failures = EXCLUDED.failures, ok_at = EXCLUDED.ok_at, changed_at = EXCLUDED.changed_at`,
      [
        state.sourceId,
        state.url,
        state.validators.etag,
        state.validators.lastModified,
        state.artifact === null ? null : JSON.stringify(state.artifact),
        state.checkedAt,
        state.status,
        state.httpStatus,
        state.error,
        state.failures,
        state.okAt,
        state.changedAt,
      ],
    );
  }

  async currentVersions(): Promise<ListVersionRecord[]> {
    const rows = await this.db.query<VersionRow>(
      `SELECT DISTINCT ON (list_id) * FROM list_versions ORDER BY list_id, version DESC`,
    );
    return rows.rows.map(versionOf);
  }

  async recordVersion(
    version: Omit<ListVersionRecord, 'version'>,
  ): Promise<{ record: ListVersionRecord; created: boolean }> {
    // One statement: the next version is inserted unless the newest already has this digest; a concurrent
    // insert of the same version number fails on the key and is read back below.
    const inserted = await this.db.query<VersionRow>(
      `WITH newest AS (
         SELECT version, sha256 FROM list_versions WHERE list_id = $1 ORDER BY version DESC LIMIT 1
       )
       INSERT INTO list_versions (list_id, version, sha256, size_bytes, entries, exceptions, sources, compiled_at)
       SELECT $1, COALESCE((SELECT version FROM newest), 0) + 1, $2, $3, $4, $5, $6, $7
       WHERE NOT EXISTS (SELECT 1 FROM newest WHERE sha256 = $2)
       ON CONFLICT (list_id, version) DO NOTHING
       RETURNING *`,
      [
        version.listId,
        version.sha256,
        version.size,
        version.entries,
        version.exceptions,
        JSON.stringify(version.sources),
        version.compiledAt,
      ],
    );
    const created = inserted.rows[0];
    if (created !== undefined) return { record: versionOf(created), created: true };
    const newest = await this.db.query<VersionRow>(
      'SELECT * FROM list_versions WHERE list_id = $1 ORDER BY version DESC LIMIT 1',
      [version.listId],
    );
    const row = newest.rows[0];
    if (row === undefined) throw new Error(`list ${version.listId} has no version after recording one`);
    return { record: versionOf(row), created: false };
  }

  async claimRefresh(holder: string, now: Date, until: Date): Promise<boolean> {
    const claimed = await this.db.query(
      `UPDATE list_refresh SET holder = $1, held_until = $3
       WHERE id = 1 AND (holder IS NULL OR holder = $1 OR held_until <= $2)`,
      [holder, now, until],
    );
    return claimed.rowCount === 1;
  }

  async releaseRefresh(holder: string, finishedAt: Date): Promise<void> {
    await this.db.query(
      `UPDATE list_refresh SET holder = NULL, held_until = NULL, finished_at = $2 WHERE id = 1 AND holder = $1`,
      [holder, finishedAt],
    );
  }

  async lastRefresh(): Promise<Date | null> {
    const row = await this.db.query<{ finished_at: Date | null }>(
      'SELECT finished_at FROM list_refresh WHERE id = 1',
    );
    return row.rows[0]?.finished_at ?? null;
  }
}
