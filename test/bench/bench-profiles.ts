import type { AutocannonRequest } from 'autocannon';

/** A profile a bench reads or writes, with the ETag its next If-Match sends. */
export interface BenchProfile {
  id: string;
  etag: string;
}

/** Creates a profile named `name`; its id and ETag. */
export async function createProfile(url: string, token: string, name: string): Promise<BenchProfile> {
  const response = await fetch(`${url}/v1/profiles`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`create profile: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  return { id, etag: response.headers.get('etag') ?? '' };
}

/** The profile's current ETag. */
export async function currentEtag(url: string, token: string, id: string): Promise<string> {
  const response = await fetch(`${url}/v1/profiles/${id}`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.headers.get('etag') ?? '';
}

/**
 * The mixes' write: a PATCH of a profile's name with If-Match. It takes a profile no other PATCH holds from
 * `free` and hands it back with the ETag of its answer, so that every If-Match matches. A PATCH cut when a run
 * ends (or by a fault) may have committed unanswered: its profile's ETag is read again before the profile goes
 * back to the pool.
 */
export function ifMatchPatch(url: string, token: string, free: BenchProfile[]): AutocannonRequest {
  const auth = { authorization: `Bearer ${token}` };
  let edits = 0;
  return {
    method: 'PATCH',
    setupRequest: (request, context) => {
      const profile = free.pop();
      if (profile === undefined) throw new Error('more PATCHes in flight than writer profiles');
      context.profile = profile;
      edits += 1;
      return {
        ...request,
        path: `/v1/profiles/${profile.id}`,
        headers: { ...auth, 'content-type': 'application/merge-patch+json', 'if-match': profile.etag },
        body: JSON.stringify({ name: `edit ${edits}` }),
      };
    },
    onResponse: (status, _body, context, headers) => {
      const profile = context.profile as BenchProfile;
      // Raw header names, as the server wrote them (ETag).
      const etag = Object.entries(headers).find(([name]) => name.toLowerCase() === 'etag')?.[1];
      if (status === 200 && etag !== undefined) {
        profile.etag = etag;
        free.push(profile);
        return;
      }
      void currentEtag(url, token, profile.id).then((current) => {
        profile.etag = current;
        free.push(profile);
      });
    },
  };
}
