import { createTestApp, type TestApp } from '@svc/http-server';
import { MemoryCredentialStore } from '@svc/node-agent-kit';
import { type ApiOwner, createOwner } from '@svc/testing/node-api-owner';
import {
  opensslMissing,
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '@svc/testing/self-signed-certificate';
import { afterAll, beforeAll, expect } from 'vitest';
import { ReferenceNode } from '../src/index.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

export const NOERROR = 0;
export const NXDOMAIN = 3;
export const REFUSED = 5;
export const RULES = {
  deny: ['ads.example', '=tracker.example'],
  allow: ['ok.ads.example'],
  rewrites: [
    { pattern: 'router.home', answer: '192.168.1.1' },
    { pattern: 'router.home', answer: 'fd00::1' },
    { pattern: 'alias.home', answer: 'target.example' },
  ],
};

/** Polls `read` until `accept` holds (5 s at most), for what the node does in the background. */
export async function eventually<T>(read: () => T | Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the clock has left the current millisecond. A log query's `to` defaults to now and excludes it
 * (spec 4.6), so a row the node recorded in the very millisecond the API reads its clock is not yet before it.
 */
export async function pastThisMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setTimeout(resolve, 1));
}
/**
 * The API in memory and a reference node enrolled into a self-hosted profile with the test rules, against a
 * test upstream, started once per file.
 */
export function useReferenceNode() {
  let api: TestApp;
  let owner: ApiOwner;
  let upstream: TestUpstream;
  let credentials: MemoryCredentialStore;
  let node: ReferenceNode;
  let profileId: string;
  let nodeId: string;
  let certificate: SelfSignedCertificate | null = null;

  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { ...owner.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, json: text === '' ? null : (JSON.parse(text) as unknown) };
  };
  /** The rows of a relayed result as objects keyed by column name. */
  const rowsOf = (json: unknown): Record<string, unknown>[] => {
    const result = json as { columns: { name: string }[]; rows: unknown[][] };
    return result.rows.map((row) =>
      Object.fromEntries(result.columns.map((column, index) => [column.name, row[index]])),
    );
  };
  const startNode = (enrolmentCode?: string) =>
    ReferenceNode.start({
      apiUrl: api.url,
      credentials,
      ...(enrolmentCode === undefined ? {} : { enrolmentCode }),
      upstream,
      dnsPort: 0,
      dohPort: 0,
      ...(certificate === null ? {} : { dot: { port: 0, ...certificate } }),
      logBatchIntervalMs: 50,
      backoff: { initialMs: 20, maxMs: 200 },
    });
  /** Writes the profile through the API and waits until the node applied the version it made. */
  const changeProfile = async (method: 'PUT' | 'PATCH', path: string, body: unknown) => {
    const answer = await request(method, path, body);
    expect(answer.status, answer.text).toBe(200);
    const profile = await request('GET', `/v1/profiles/${profileId}`);
    const version = (profile.json as { version: number }).version;
    expect(
      await eventually(
        () => node.profileVersion,
        (applied) => applied === version,
      ),
    ).toBe(version);
  };

  beforeAll(async () => {
    api = await createTestApp();
    owner = await createOwner(api.url, (address) =>
      api.mailer.to(address).map((message) => message.text ?? ''),
    );
    upstream = await startTestUpstream();
    if (opensslMissing === undefined) certificate = selfSignedCertificate();
    else console.warn(`the node's DoT is not tested: ${opensslMissing}`);
    const profile = await request('POST', '/v1/profiles', {
      name: 'home',
      settings: { log_destination: 'self-hosted', block_mode: 'nxdomain' },
    });
    expect(profile.status, profile.text).toBe(201);
    profileId = (profile.json as { id: string }).id;
    expect((await request('PUT', `/v1/profiles/${profileId}/rules`, RULES)).status).toBe(200);
    const created = await request('POST', `/v1/profiles/${profileId}/nodes`, { name: 'reference' });
    expect(created.status, created.text).toBe(201);
    const body = created.json as { enrolment_code: string; node?: { id: string }; id?: string };
    credentials = new MemoryCredentialStore();
    node = await startNode(body.enrolment_code);
    nodeId = (await credentials.load())?.nodeId ?? '';
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    await upstream?.close();
    await api?.close();
  });

  return {
    get api(): TestApp {
      return api;
    },
    get owner(): ApiOwner {
      return owner;
    },
    get upstream(): TestUpstream {
      return upstream;
    },
    get credentials(): MemoryCredentialStore {
      return credentials;
    },
    get node(): ReferenceNode {
      return node;
    },
    set node(value: ReferenceNode) {
      node = value;
    },
    get profileId(): string {
      return profileId;
    },
    get nodeId(): string {
      return nodeId;
    },
    get certificate(): SelfSignedCertificate | null {
      return certificate;
    },
    request,
    rowsOf,
    startNode,
    changeProfile,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type ReferenceNodeFixture = ReturnType<typeof useReferenceNode>;
