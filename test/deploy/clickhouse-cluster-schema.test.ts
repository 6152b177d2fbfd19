import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// deploy/clickhouse-cluster/schema/ is written by hand: each file is the cluster variant of the migration of
// the same name (Replicated* `<name>_local` tables behind Distributed ones, ALTERs run on both). These tests
// hold the two to the same tables, columns, types, orders, partitions and TTLs, so that a migration changed
// without its cluster variant fails here rather than on a cluster.

const ROOT = join(import.meta.dirname, '..', '..');
const MIGRATIONS = join(ROOT, 'packages/adapters/src/clickhouse/clickhouse-migrations');
const CLUSTER = join(ROOT, 'deploy/clickhouse-cluster/schema');

/** A table as a file creates it: its columns and the clauses after its engine, comments and blanks dropped. */
interface TableShape {
  columns: string[];
  clauses: string[];
}

/** The SQL without its comments, one statement per entry. */
function statementsOf(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/** The table name without the cluster's database and `_local` suffix. */
const baseName = (name: string) => name.replace(/^svc\./, '').replace(/_local$/, '');

/** The tables a file creates with columns (a Distributed table `AS` another has none of its own). */
function tablesOf(sql: string): Map<string, TableShape> {
  const tables = new Map<string, TableShape>();
  for (const statement of statementsOf(sql)) {
    const created =
      /^CREATE TABLE IF NOT EXISTS (\S+)(?: ON CLUSTER \S+)?\s*\(([\s\S]*)\)\s*ENGINE\s*=\s*[^\n]*\n?([\s\S]*)$/.exec(
        statement,
      );
    if (created === null) continue;
    const [, name = '', columns = '', clauses = ''] = created;
    tables.set(baseName(name), {
      columns: columns
        .split('\n')
        .map((line) => line.trim().replace(/,$/, ''))
        .filter((line) => line !== ''),
      clauses: clauses
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    });
  }
  return tables;
}

/** The column changes of every ALTER TABLE, by the table they change. */
function altersOf(sql: string): Map<string, string[]> {
  const alters = new Map<string, string[]>();
  for (const statement of statementsOf(sql)) {
    const altered = /^ALTER TABLE (\S+)(?: ON CLUSTER \S+)?\s+([\s\S]*)$/.exec(statement);
    if (altered === null) continue;
    const [, name = '', changes = ''] = altered;
    const table = baseName(name);
    alters.set(table, [
      ...(alters.get(table) ?? []),
      // How long the statement waits (SETTINGS mutations_sync) is how it runs, not what the schema becomes.
      ...changes
        .replace(/\s+SETTINGS\s+[\s\S]*$/, '')
        .split(',')
        .map((change) => change.trim().replace(/\s+/g, ' ')),
    ]);
  }
  return alters;
}

/** The engine-specific clauses a cluster table may add (Replicated*, Distributed) are not compared. */
const engineFree = (clauses: string[]) => clauses.filter((clause) => !clause.startsWith('SETTINGS'));

const migrations = readdirSync(MIGRATIONS)
  .filter((file) => file.endsWith('.sql'))
  .sort();

describe('the ClickHouse cluster schema (deploy/clickhouse-cluster/schema)', () => {
  it('has a cluster variant of every migration, and no other', () => {
    const variants = readdirSync(CLUSTER)
      .filter((file) => file.endsWith('.sql') && file !== '0000_cluster_database.sql')
      .sort();
    expect(variants).toEqual(migrations);
  });

  it.each(migrations)('%s: the same tables, columns and clauses, its alters, and its id recorded', (file) => {
    const single = readFileSync(join(MIGRATIONS, file), 'utf8');
    const cluster = readFileSync(join(CLUSTER, file), 'utf8');
    const singleTables = tablesOf(single);
    const clusterTables = tablesOf(cluster);
    expect([...clusterTables.keys()].sort()).toEqual([...singleTables.keys()].sort());
    for (const [name, shape] of singleTables) {
      const variant = clusterTables.get(name);
      expect(variant?.columns, `${name} columns`).toEqual(shape.columns);
      expect(engineFree(variant?.clauses ?? []), `${name} clauses`).toEqual(engineFree(shape.clauses));
    }
    // Every ALTER runs on the replicas' tables and the Distributed ones alike.
    for (const [name, changes] of altersOf(single)) {
      expect(altersOf(cluster).get(name), `${name} alters`).toEqual([...changes, ...changes]);
    }
    expect(cluster).toContain(
      `INSERT INTO svc.schema_migrations (id) VALUES ('${file.replace(/\.sql$/, '')}');`,
    );
  });

  it('tells a changed column apart (the comparison can fail)', () => {
    const single = readFileSync(join(MIGRATIONS, '0002_query_log.sql'), 'utf8');
    const changed = single.replace('qtype UInt16', 'qtype UInt32');
    expect(tablesOf(changed).get('query_log')?.columns).not.toEqual(
      tablesOf(single).get('query_log')?.columns,
    );
  });
});
