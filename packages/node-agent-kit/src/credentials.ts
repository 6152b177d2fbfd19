import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ProfilePublicKey } from '@svc/sdk';

/** What a node keeps between runs: its token (a secret) and the keys its profile documents are signed with. */
export interface NodeCredentials {
  nodeId: string;
  profileId: string;
  /** The current node token, `svcnode_…`. */
  nodeToken: string;
  /** The profile signing keys announced at enrolment, the signing key first. */
  profileKeys: ProfilePublicKey[];
  /**
   * The version of the last profile document applied, kept so that an older document replayed after a restart
   * is refused too. Absent before the first.
   */
  appliedProfileVersion?: number;
  /**
   * The `sequence` of the last profile document applied, kept for the same reason: documents of one version
   * differ after a list refresh, and only the sequence tells a replayed earlier one. Absent before the first.
   */
  appliedProfileSequence?: number;
}

/** Where a node persists its credentials; the token must survive restarts and rotations. */
export interface CredentialStore {
  load(): Promise<NodeCredentials | null>;
  save(credentials: NodeCredentials): Promise<void>;
}

/** Credentials in memory (tests, or a node that enrols on every start). */
export class MemoryCredentialStore implements CredentialStore {
  private credentials: NodeCredentials | null = null;

  async load(): Promise<NodeCredentials | null> {
    return this.credentials === null ? null : structuredClone(this.credentials);
  }

  async save(credentials: NodeCredentials): Promise<void> {
    this.credentials = structuredClone(credentials);
  }
}

/**
 * Credentials in a JSON file readable by its owner only, replaced atomically (written aside, then renamed), so
 * that a crash during a rotation leaves either the old token or the new one, never half of one.
 */
export class FileCredentialStore implements CredentialStore {
  constructor(private readonly path: string) {}

  async load(): Promise<NodeCredentials | null> {
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return text === null ? null : (JSON.parse(text) as NodeCredentials);
  }

  async save(credentials: NodeCredentials): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const aside = `${this.path}.${process.pid}.tmp`;
    await writeFile(aside, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    await chmod(aside, 0o600);
    await rename(aside, this.path);
  }
}
