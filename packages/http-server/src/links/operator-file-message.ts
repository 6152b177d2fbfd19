import {
  type NodeOperatorFileName,
  nodeOperatorFile,
  operatorFileSignaturePayload,
  type ProfileSigner,
  type ServerToNodeMessage,
} from '@svc/domain';

/** The `operator_file` message of a file version: the node's part of it, signed when the server signs. */
export function operatorFileMessage(
  signer: ProfileSigner | undefined,
  file: NodeOperatorFileName,
  version: number,
  document: unknown,
): ServerToNodeMessage {
  const scoped = nodeOperatorFile(file, version, document);
  const signed = signer?.sign(operatorFileSignaturePayload(file, version, scoped)) ?? null;
  return {
    type: 'operator_file',
    file,
    version,
    document: scoped,
    ...(signed === null
      ? {}
      : { signature: signed.signature, key_id: signed.key.keyId, public_key: signed.key.publicKey }),
  };
}
