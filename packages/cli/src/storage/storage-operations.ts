import { migrateStores } from '@svc/composition';
import { IdentityStore, type InviteService, setOperatorFlag } from '@svc/domain';
import { InviteServiceToken } from '@svc/http-server';
import type { Container } from 'inversify';
import { importListOperation, refreshListsOperation } from './lists.operations.js';
import { simulateOperation } from './simulate.operation.js';

/** A storage operation: runs on a container, here or inside the server holding the embedded engines. */
export type StorageOperation = (container: Container, args: Record<string, unknown>) => Promise<unknown>;

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.length === 0) throw new Error(`${name} is required`);
  return value;
};

/**
 * Every storage command other than migrate, by name. The server registers the same functions on its control
 * socket, so a command does the same thing whichever process runs it.
 */
export const STORAGE_OPERATIONS: Record<string, StorageOperation> = {
  migrate: (container) => migrateStores(container),
  'invites.create': async (container, args) => {
    const invites = await container.getAsync<InviteService>(InviteServiceToken);
    const uses = typeof args.uses === 'number' ? args.uses : 1;
    const expiresInMs = typeof args.expiresInMs === 'number' ? args.expiresInMs : null;
    return invites.create(uses, expiresInMs);
  },
  'invites.list': async (container) => (await container.getAsync<InviteService>(InviteServiceToken)).list(),
  'invites.revoke': async (container, args) => {
    const invites = await container.getAsync<InviteService>(InviteServiceToken);
    return { revoked: await invites.revoke(text(args.code, 'CODE')) };
  },
  simulate: simulateOperation,
  'lists.refresh': refreshListsOperation,
  'lists.import': importListOperation,
  'accounts.set-operator': async (container, args) => {
    const store = await container.getAsync<IdentityStore>(IdentityStore);
    return setOperatorFlag(store, text(args.email, 'EMAIL'), args.on !== false);
  },
};
