/** `/v1/profiles/{id}` with the id escaped, and any sub-path appended (already escaped by the caller). */
export function profilePath(id: string, ...segments: string[]): string {
  return ['/v1/profiles', encodeURIComponent(id), ...segments].join('/');
}
