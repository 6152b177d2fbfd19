import type { FieldError } from '@svc/sdk';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Link } from 'wouter';
import { ConfirmIdentityDialog } from '../components/confirm-identity-dialog.js';
import { useFieldId } from '../forms/field-id.js';
import { t } from '../i18n/t.js';
import type { DisplayProblem } from './problem-of.js';
import { ProblemReference } from './problem-reference.js';
import { useCountdown } from './use-countdown.js';

/** Props of {@link ProblemDisplay}. */
export interface ProblemDisplayProps {
  problem: DisplayProblem;
  /** Offers a Retry button (disabled while a Retry-After countdown runs). */
  onRetry?: () => void;
  /** Labels of the form's fields, so that the summary names them as the page does. */
  fieldLabels?: Readonly<Record<string, string>>;
  /** The form control of an API field when it is named otherwise (two forms on a page asking for `code`). */
  fieldNames?: Readonly<Record<string, string>>;
  /** Moves focus to the summary when it appears (forms), as screen-reader users expect. */
  focus?: boolean;
  /**
   * What to repeat once the person confirmed who they are (403 reauth_required): the form's submission, the
   * button's action. Without it the confirmation still signs in again, and the person repeats the action.
   */
  afterReauth?: () => void;
  /** Extra actions, for example a link to ask for a new email. */
  children?: ReactNode;
  /** Advice that fits the page better than the code's own (the page has already read the latest version). */
  advice?: string | undefined;
}

function fieldErrorText(error: FieldError, labels: Readonly<Record<string, string>>): string {
  const label = labels[error.field] ?? error.field;
  return /^[a-z]/.test(error.message) ? `${label} ${error.message}` : `${label}: ${error.message}`;
}

/**
 * How every failure reads in the dashboard: a plain title, the server's detail, what to do, a countdown when
 * the server said when to come back, the reference to quote, and for a form the list of fields to correct
 * (each a link to its field, where the message is repeated). A 403 reauth_required is no failure but a
 * question (confirm it is you), so it is the neutral confirm-it-is-you dialog instead: no alert, no
 * reference.
 */
export function ProblemDisplay({
  problem,
  onRetry,
  fieldLabels = {},
  fieldNames = {},
  focus = false,
  afterReauth,
  children,
  advice = problem.advice,
}: ProblemDisplayProps) {
  const wait = useCountdown(problem.retryAfter);
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const fieldId = useFieldId();
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  const signIn = problem.code === 'unauthenticated' || problem.code === 'mfa_required';
  if (problem.code === 'reauth_required')
    return <ConfirmIdentityDialog onConfirmed={afterReauth ?? onRetry} />;
  return (
    <div className="problem" role="alert" aria-labelledby={titleId} tabIndex={-1} ref={box}>
      <h2 id={titleId} className="problem-title">
        {problem.title}
      </h2>
      {problem.detail !== undefined && problem.detail !== problem.title && <p>{problem.detail}</p>}
      {advice !== undefined && <p>{advice}</p>}
      {problem.fieldErrors.length > 0 && (
        <ul className="problem-fields">
          {problem.fieldErrors.map((error) => (
            <li key={`${error.field}:${error.message}`}>
              <a href={`#${fieldId(fieldNames[error.field] ?? error.field)}`}>
                {fieldErrorText(error, fieldLabels)}
              </a>
            </li>
          ))}
        </ul>
      )}
      {wait > 0 && <p aria-live="polite">{t('problems.retryIn', { seconds: wait })}</p>}
      <div className="actions">
        {onRetry !== undefined && (
          <button type="button" onClick={onRetry} disabled={wait > 0}>
            {t('common.retry')}
          </button>
        )}
        {signIn && (
          <Link href={`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`}>
            {t('problems.signInAgain')}
          </Link>
        )}
        {children}
      </div>
      {problem.code === 'account_pending_deletion' && window.location.pathname !== '/account' && (
        <p>
          <Link href="/account">{t('problems.goToAccount')}</Link>
        </p>
      )}
      {problem.code === 'mfa_enrolment_required' && window.location.pathname !== '/account/security' && (
        <p>
          <Link href="/account/security">{t('problems.setUpSecondFactor')}</Link>
        </p>
      )}
      <ProblemReference requestId={problem.requestId} />
    </div>
  );
}
