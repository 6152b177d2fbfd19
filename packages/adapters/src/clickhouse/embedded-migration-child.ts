/**
 * The child process of {@link migrateEmbeddedColumnarStore}: opens the embedded store of the data dir given as
 * its argument, applies its migrations, prints their ids as JSON and exits. Its own entry (and bundle entry),
 * so that the child loads the columnar store's module and chdb, not every adapter.
 */
import { createColumnarStore } from './clickhouse.columnar-store.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: embedded-migration-child <data-dir>');
// Migrations read nothing: no connections for reads.
const store = await createColumnarStore({ dataDir, readConnections: 0 });
const applied = await store.migrate();
await store.close();
process.stdout.write(JSON.stringify(applied), () => process.exit(0));
