import { t } from '../i18n/t.js';

/** The request id of a failure, to quote to support; nothing when the failure has none. */
export function ProblemReference({ requestId }: { requestId: string | undefined }) {
  if (requestId === undefined) return null;
  return (
    <p className="reference">
      {t('problems.reference')} <code>{requestId}</code>
    </p>
  );
}
