import type { QueryLogColumns } from '@svc/adapters';
import { type OperatorCode, QUERY_STATUSES, type QueryLogRow } from '@svc/domain';

// The batches a simulation fills: typed arrays of one batch's rows, and the dictionaries its coded columns
// read their values from.

/** Simulated rows come from the cloud, never a node. */
const NO_NODE: readonly (string | null)[] = Object.freeze([null]);

/** The column dictionaries of one simulation. */
export interface SimulationDictionaries {
  profileId: readonly string[];
  pops: readonly string[];
  deviceIds: readonly string[];
  deviceNames: readonly string[];
  transports: readonly QueryLogRow['transport'][];
  clientIps: readonly string[];
  qnames: readonly string[];
  listIds: readonly (number | null)[];
  listNames: readonly string[];
  rules: readonly string[];
  operatorCodes: readonly (OperatorCode | '')[];
  /** The policy that decided each decision (LoggedDecision.decidedBy, issue 38). */
  decidedBys: readonly string[];
  answers: readonly (readonly string[])[];
  nameV4: Uint32Array;
  nameV6: Uint32Array;
  rewriteV4: Uint32Array;
  rewriteV6: Uint32Array;
}

/** The arrays a batch is filled into, one entry per row (row ids: two words). */
export interface BatchArrays {
  ts: Float64Array;
  rowId: Uint32Array;
  pop: Uint16Array;
  device: Uint16Array;
  clientIp: Uint16Array;
  name: Uint32Array;
  decision: Uint32Array;
  qtype: Uint16Array;
  status: Uint8Array;
  rcode: Uint8Array;
  dnssec: Uint8Array;
  cacheHit: Uint8Array;
  latency: Uint32Array;
  answers: Uint32Array;
}

export function emptyBatch(size: number): BatchArrays {
  return {
    ts: new Float64Array(size),
    rowId: new Uint32Array(2 * size),
    pop: new Uint16Array(size),
    device: new Uint16Array(size),
    clientIp: new Uint16Array(size),
    name: new Uint32Array(size),
    decision: new Uint32Array(size),
    qtype: new Uint16Array(size),
    status: new Uint8Array(size),
    rcode: new Uint8Array(size),
    dnssec: new Uint8Array(size),
    cacheHit: new Uint8Array(size),
    latency: new Uint32Array(size),
    answers: new Uint32Array(size),
  };
}

/** The first `length` rows of a filled batch as columns. */
export function batchColumns(
  batch: BatchArrays,
  length: number,
  dictionaries: SimulationDictionaries,
): QueryLogColumns {
  const cut = <A extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(array: A, width = 1): A =>
    (length * width === array.length ? array : array.subarray(0, length * width)) as A;
  const device = cut(batch.device);
  const decision = cut(batch.decision);
  return {
    length,
    profileId: { codes: new Uint8Array(length), values: dictionaries.profileId },
    ts: cut(batch.ts),
    rowId: cut(batch.rowId, 2),
    pop: { codes: cut(batch.pop), values: dictionaries.pops },
    node: { codes: new Uint8Array(length), values: NO_NODE },
    deviceId: { codes: device, values: dictionaries.deviceIds },
    deviceName: { codes: device, values: dictionaries.deviceNames },
    clientIp: { codes: cut(batch.clientIp), values: dictionaries.clientIps },
    transport: { codes: device, values: dictionaries.transports },
    qname: { codes: cut(batch.name), values: dictionaries.qnames },
    qtype: cut(batch.qtype),
    status: { codes: cut(batch.status), values: QUERY_STATUSES },
    reasonListId: { codes: decision, values: dictionaries.listIds },
    reasonListName: { codes: decision, values: dictionaries.listNames },
    reasonRule: { codes: decision, values: dictionaries.rules },
    operatorCode: { codes: decision, values: dictionaries.operatorCodes },
    rcode: cut(batch.rcode),
    dnssecValidated: cut(batch.dnssec),
    cacheHit: cut(batch.cacheHit),
    latencyUs: cut(batch.latency),
    answerIps: { codes: cut(batch.answers), values: dictionaries.answers },
    decidedBy: { codes: decision, values: dictionaries.decidedBys },
  };
}
