/**
 * The organisation owning a live (not tombstoned) profile, whatever the caller's: for tools that name a profile
 * by id alone (`svc simulate`), which then read it through the organisation-bound ProfileStore. Bound by the
 * adapter family that keeps the profiles; unbound, such a tool cannot find a profile by id.
 */
export const ProfileOwnerLookup = Symbol.for('svc.ProfileOwnerLookup');
export interface ProfileOwnerLookup {
  organisationOf(profileId: string): Promise<string | null>;
}
