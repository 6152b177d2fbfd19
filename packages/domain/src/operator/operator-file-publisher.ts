import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { OperatorFileName, OperatorFileScope } from './operator.ports.js';
import {
  OPERATOR_CHANGED_SUBJECT,
  operatorBlocksDocument,
  operatorChanged,
  operatorSourcesDocument,
} from './operator-files.js';

/**
 * Writes the next version of an operator file inside the caller's transaction, which holds the file's lock
 * (`tx.operator.lockFile`) at version `current`: entries past their expiry leave it now, the file is stored and
 * announced once on `operator.changed` through the outbox. Returns the new version (`current + 1`).
 */
export async function republishOperatorFile(
  tx: OperatorFileScope,
  file: OperatorFileName,
  current: number,
  now: Date,
): Promise<number> {
  const version = current + 1;
  const document =
    file === 'operator_blocks'
      ? operatorBlocksDocument(version, await tx.operator.blocks.live(now), now)
      : operatorSourcesDocument(version, await tx.operator.sources.live(now), now);
  await tx.operator.saveFile(file, version, document, now);
  await tx.outbox.enqueue({
    subject: OPERATOR_CHANGED_SUBJECT,
    payload: operatorChanged(file, version, document),
  });
  return version;
}

/**
 * Republishes each operator file that holds an entry whose expiry has passed, so expired entries leave the
 * file at their expiry. Safe on several servers at once: the file lock serialises them, and the entries a
 * run marks expired are not found by the next.
 */
export async function republishExpiredOperatorFiles(
  uow: ScopedUnitOfWork<OperatorFileScope>,
  now: Date,
): Promise<number> {
  let republished = 0;
  for (const file of ['operator_blocks', 'operator_sources'] as const) {
    const changed = await uow.run(async (tx) => {
      const current = await tx.operator.lockFile(file);
      const entries = file === 'operator_blocks' ? tx.operator.blocks : tx.operator.sources;
      if ((await entries.markExpired(now)) === 0) return false;
      await republishOperatorFile(tx, file, current, now);
      return true;
    });
    if (changed) republished += 1;
  }
  return republished;
}
