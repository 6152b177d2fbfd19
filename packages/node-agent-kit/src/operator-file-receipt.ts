import type { ProfilePublicKey } from '@svc/sdk';
import type { ServerMessage } from './agent-link.js';
import type { NodeAgentLogger, NodeAgentOptions } from './node-agent.options.js';
import { type OperatorFileMessage, verifyOperatorFile } from './profile-verification.js';

/** What receiving operator files needs. */
export interface OperatorFileReceiptDependencies {
  options: Pick<NodeAgentOptions, 'filter' | 'onOperatorFile' | 'onRejectedProfile'>;
  logger: NodeAgentLogger;
  /** The profile signing keys of the enrolment, which sign operator files too. */
  profileKeys(): ProfilePublicKey[];
  send(message: object): void;
}

/** The operator file an `operator_file` message carries, with the fields it holds. */
function operatorFileOf(message: ServerMessage): OperatorFileMessage {
  return {
    file: message.file === 'operator_sources' ? 'operator_sources' : 'operator_blocks',
    version: Number(message.version),
    document: (message.document ?? {}) as Record<string, unknown>,
    ...(typeof message.signature === 'string' ? { signature: message.signature } : {}),
    ...(typeof message.key_id === 'string' ? { key_id: message.key_id } : {}),
    ...(typeof message.public_key === 'string' ? { public_key: message.public_key } : {}),
  };
}

/**
 * Verifies, applies and acknowledges an operator file (`operator_file_ack`); a file that does not verify is
 * logged, told to `onRejectedProfile` and dropped. A node with neither a filter nor `onOperatorFile` ignores
 * them.
 */
export async function receiveOperatorFile(
  deps: OperatorFileReceiptDependencies,
  message: ServerMessage,
): Promise<void> {
  const file = operatorFileOf(message);
  const { filter, onOperatorFile, onRejectedProfile } = deps.options;
  if (filter === undefined && onOperatorFile === undefined) return;
  try {
    verifyOperatorFile(file, deps.profileKeys());
  } catch (error) {
    const refusal = error instanceof Error ? error : new Error(String(error));
    deps.logger.warn(`operator file refused: ${refusal.message}`, {
      file: file.file,
      version: file.version,
    });
    onRejectedProfile?.(refusal);
    return;
  }
  await filter?.applyOperatorFile(file);
  await onOperatorFile?.(file);
  deps.send({ type: 'operator_file_ack', file: file.file, version: file.version });
}
