/**
 * Removes what obviously must not be stored from a client error report: API and node tokens, session cookie
 * values, email addresses, and `token=`/`password=` query values. Replacements keep the shape readable.
 */
const SCRUBBERS: ReadonlyArray<[RegExp, string]> = [
  [/\b(svc_session|session)=[^;\s&"']+/gi, '$1=[redacted]'],
  [/\bsvcnode_[A-Za-z0-9_-]+/g, 'svcnode_[redacted]'],
  // API token secrets are `svc_` and 52 alphanumerics; shorter words (`svc_session`) are not secrets.
  [/\bsvc_[A-Za-z0-9]{16,}/g, 'svc_[redacted]'],
  [/([?&;\s]|^)(token|password|passwd|secret)=[^&\s#"']*/gi, '$1$2=[redacted]'],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[email]'],
];

/** The text with secrets replaced (see {@link SCRUBBERS}). */
export function scrubSecrets(text: string): string {
  let scrubbed = text;
  for (const [pattern, replacement] of SCRUBBERS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
