import type { EdgeDocumentReader } from './profile.ports.js';

/**
 * The edge document parts of one profile as a committer read them with it ({@link ProfileSnapshot}). Asked for
 * another profile's parts it throws: contributors read only the profile whose document they write.
 */
export function snapshotParts(profileId: string, linkedIps: readonly string[]): EdgeDocumentReader {
  return {
    linkedIps: {
      addresses: async (id) => {
        if (id !== profileId) throw new Error(`a snapshot of profile ${profileId} was asked for ${id}`);
        return [...linkedIps];
      },
    },
  };
}
