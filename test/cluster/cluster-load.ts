import { ApiError, createClient, type SvcClient } from '@svc/sdk';
import autocannon from 'autocannon';
import { type ConnectionOptions, connect, JSONCodec } from 'nats';

/**
 * The load of the fault tests: reads through autocannon and writes through the SDK, both at the balancer,
 * with every acknowledged write remembered, and a subscriber on NATS recording the profile documents.
 */

/** What a client was told about one profile: its id and the versions (ETags) acknowledged to it, in order. */
export interface AcknowledgedProfile {
  id: string;
  versions: number[];
}

/** One answer that was not a success, and when it came relative to the fault. */
interface Failure {
  kind: string;
  /** When the request (with its SDK retries) was sent, in milliseconds after the fault began (negative: before). */
  at: number;
  what: string;
}

/** What one run under load saw. */
export interface LoadOutcome {
  reads: number;
  writes: number;
  failures: Failure[];
  acknowledged: AcknowledgedProfile[];
  /** Milliseconds from the fault to its last failure (0 without failures): the time to recover. */
  recoveredMs: number;
  /** Answers (reads and writes, any status) in each 500 ms from 1 s before the fault: throughput over time. */
  timeline: number[];
  /** The longest a write took to be acknowledged. */
  slowestWriteMs: number;
  /** When the last acknowledged write was sent, from the fault. */
  lastAcknowledgedMs: number;
  /** How long the fault itself took (a kill until the process was gone, a failover until promoted). */
  faultMs: number;
  /** Whether a write was acknowledged after the last failure (the system took writes again). */
  writesAfterRecovery: boolean;
}

/** Records `profiles.<id>` documents published on the NATS cluster: each profile's versions in arrival order. */
export async function recordProfileDocuments(options: ConnectionOptions) {
  const connection = await connect({ ...options, name: 'cluster-test-subscriber', maxReconnectAttempts: -1 });
  const codec = JSONCodec<{ version?: number }>();
  const versions = new Map<string, number[]>();
  /** The Nats-Msg-Id (the outbox row) of each profile version delivered, to tell a redelivery from a second write. */
  const messageIds = new Map<string, Set<string>>();
  const subscription = connection.subscribe('profiles.>');
  void (async () => {
    for await (const message of subscription) {
      const id = message.subject.slice('profiles.'.length);
      const { version } = codec.decode(message.data);
      if (typeof version !== 'number') continue;
      versions.set(id, [...(versions.get(id) ?? []), version]);
      const key = `${id}@${version}`;
      messageIds.set(key, (messageIds.get(key) ?? new Set()).add(message.headers?.get('Nats-Msg-Id') ?? ''));
    }
  })();
  await connection.flush();
  return {
    versions,
    messageIds,
    /** Waits until each profile's last acknowledged version arrived (or `ms` passed). */
    settle: async (acknowledged: AcknowledgedProfile[], ms = 15_000) => {
      const deadline = Date.now() + ms;
      const pending = () =>
        acknowledged.filter((profile) => {
          const last = profile.versions[profile.versions.length - 1] ?? 0;
          return !(versions.get(profile.id) ?? []).includes(last);
        });
      while (pending().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    },
    close: () => connection.drain(),
  };
}

/** Why a call failed, in a few words. */
function described(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} ${error.code}`;
  return error instanceof Error ? error.constructor.name : String(error);
}

/**
 * Runs the mix against `url` for `durationMs`, calls `fault` at `faultAtMs`, then `recover` (if given) right
 * after it: autocannon reads (GET of a profile, a page of profiles) on `connections` connections, and
 * `writers` SDK clients each creating a profile (an Idempotency-Key, retried by the SDK) and then PATCHing it
 * with If-Match (not retried: a PATCH is not idempotent; a 412 after a failure means the failed one had
 * committed, and the version is read back).
 */
export async function runFaultLoad(options: {
  url: string;
  token: string;
  readIds: string[];
  durationMs: number;
  faultAtMs: number;
  fault: () => Promise<void>;
  connections?: number;
  writers?: number;
}): Promise<LoadOutcome> {
  const { url, token, readIds } = options;
  const failures: Failure[] = [];
  const acknowledged: AcknowledgedProfile[] = [];
  // Planned at first; the moment the fault began once it has.
  let faultAt = performance.now() + options.faultAtMs;
  const since = () => performance.now() - faultAt;
  const timeline: number[] = [];
  const answered = () => {
    const bucket = Math.floor((since() + 1_000) / 500);
    if (bucket >= 0) timeline[bucket] = (timeline[bucket] ?? 0) + 1;
  };
  let lastAcknowledgedAt = 0;
  let writes = 0;
  /** The longest a write took to be acknowledged (with the SDK's retries and the balancer's). */
  let slowest = 0;
  let stopped = false;
  const client: SvcClient = createClient({ baseUrl: url, token, timeoutMs: 10_000, maxRetries: 4 });
  const write = async (index: number) => {
    let sequence = 0;
    while (!stopped) {
      sequence += 1;
      let sentAt = since();
      let created: { id: string; version: number };
      try {
        created = await client.profiles.create({ name: `writer ${index} ${sequence}` });
      } catch (error) {
        failures.push({ kind: 'POST /v1/profiles', at: sentAt, what: described(error) });
        continue;
      }
      writes += 1;
      slowest = Math.max(slowest, since() - sentAt);
      const profile: AcknowledgedProfile = { id: created.id, versions: [created.version] };
      acknowledged.push(profile);
      lastAcknowledgedAt = sentAt;
      for (let edit = 0; edit < 5 && !stopped; edit += 1) {
        const version = profile.versions[profile.versions.length - 1] ?? 1;
        sentAt = since();
        try {
          const updated = await client.profiles.update(
            created.id,
            { name: `writer ${index} ${sequence} edit ${edit}` },
            { ifMatch: version },
          );
          writes += 1;
          slowest = Math.max(slowest, since() - sentAt);
          profile.versions.push(updated.version);
          lastAcknowledgedAt = sentAt;
        } catch (error) {
          failures.push({ kind: 'PATCH /v1/profiles/{id}', at: sentAt, what: described(error) });
          // The failed PATCH may have committed unanswered: carry on from what is stored.
          const stored = await client.profiles.get(created.id).catch(() => undefined);
          if (stored !== undefined && stored.version > version) profile.versions.push(stored.version);
        }
      }
    }
  };
  let next = 0;
  const reads = autocannon({
    url,
    connections: options.connections ?? 8,
    duration: options.durationMs / 1000,
    requests: [
      {
        method: 'GET',
        setupRequest: (request, context) => {
          context.sentAt = since();
          next += 1;
          return {
            ...request,
            path: `/v1/profiles/${readIds[next % readIds.length]}`,
            headers: { authorization: `Bearer ${token}` },
          };
        },
        onResponse: (status, _body, context) => {
          if (status !== 200)
            failures.push({
              kind: 'GET /v1/profiles/{id}',
              at: Number(context.sentAt),
              what: String(status),
            });
        },
      },
      {
        method: 'GET',
        path: '/v1/profiles?limit=20',
        setupRequest: (request, context) => {
          context.sentAt = since();
          return { ...request, headers: { authorization: `Bearer ${token}` } };
        },
        onResponse: (status, _body, context) => {
          answered();
          if (status !== 200)
            failures.push({ kind: 'GET /v1/profiles', at: Number(context.sentAt), what: String(status) });
        },
      },
    ],
  });
  const writing = Promise.all(Array.from({ length: options.writers ?? 4 }, (_, index) => write(index)));
  await new Promise((resolve) => setTimeout(resolve, options.faultAtMs));
  faultAt = performance.now();
  await options.fault();
  const faultMs = since();
  const result = await reads;
  // Socket errors and time-outs of autocannon are failures too (a connection cut mid-request).
  for (let index = 0; index < result.errors + result.timeouts; index += 1)
    failures.push({ kind: 'GET (socket)', at: Number.NaN, what: 'connection error' });
  stopped = true;
  await writing;
  const lastFailure = Math.max(0, ...failures.map((failure) => failure.at).filter(Number.isFinite));
  return {
    reads: result.requests.total,
    writes,
    failures,
    acknowledged,
    recoveredMs: lastFailure,
    faultMs,
    slowestWriteMs: slowest,
    lastAcknowledgedMs: lastAcknowledgedAt,
    timeline: Array.from(timeline, (count) => count ?? 0),
    writesAfterRecovery: lastAcknowledgedAt > lastFailure,
  };
}
