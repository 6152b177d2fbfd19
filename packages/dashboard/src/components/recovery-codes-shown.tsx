import { CopyButton } from './copy-button.js';

/** Recovery codes, shown once: the list, a copy button, and what they are for. */
export function RecoveryCodesShown({ codes }: { codes: readonly string[] }) {
  return (
    <section className="notice" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title">Your recovery codes</h3>
      <p>
        Keep these somewhere safe, apart from your authenticator. Each works once to recover your account if
        you lose your second factor. They are shown only now.
      </p>
      <ul className="codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} label="Copy the recovery codes" />
    </section>
  );
}
