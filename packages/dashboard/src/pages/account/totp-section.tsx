import type { TotpDisabled, TotpEnabled, TotpEnrolment } from '@svc/sdk';
import { type UseMutationResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { accountKeys } from '../../api/account.queries.js';
import { authKeys, authQueries } from '../../api/auth.queries.js';
import { api } from '../../api/client.js';
import { CopyButton } from '../../components/copy-button.js';
import { QrCode } from '../../components/qr-code.js';
import { RecoveryCodesShown } from '../../components/recovery-codes-shown.js';
import { useNotify } from '../../feedback/notify.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** Groups a base32 secret in fours, as authenticator apps show it, for typing by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** Enrolling: the QR code, the key to type by hand, and the first code that turns the app on. */
function Enrolment({ enrolment, confirm }: { enrolment: TotpEnrolment; confirm: ApiForm<TotpEnabled> }) {
  const label = t('account.totp.code');
  return (
    <div className="enrolment">
      <ol>
        <li>
          <p>{t('account.totp.scan')}</p>
          <QrCode value={enrolment.otpauth_uri} label={t('account.totp.qr')} />
        </li>
        <li>
          <p>
            {t('account.totp.typeKey')} <code className="secret">{grouped(enrolment.secret)}</code>{' '}
            <CopyButton text={enrolment.secret} label={t('account.totp.copyKey')} />
          </p>
        </li>
        <li>
          <p>{t('account.totp.enterCode')}</p>
          <FormProblem form={confirm} labels={{ code: label }} names={{ code: 'totp_code' }} />
          <form onSubmit={confirm.onSubmit} noValidate>
            <TextField
              name="totp_code"
              label={label}
              inputMode="numeric"
              autoComplete="one-time-code"
              error={confirm.errorOf('code')}
            />
            <SubmitButton pending={confirm.pending}>{t('account.totp.turnOn')}</SubmitButton>
          </form>
        </li>
      </ol>
    </div>
  );
}

/** Turning the app off, behind a disclosure: it takes a current code. */
function TurnOff({ disable }: { disable: ApiForm<TotpDisabled> }) {
  const label = t('account.totp.currentCode');
  return (
    <details>
      <summary>{t('account.totp.turnOffTitle')}</summary>
      <FormProblem form={disable} labels={{ code: label }} names={{ code: 'disable_code' }} />
      <form onSubmit={disable.onSubmit} noValidate>
        <TextField
          name="disable_code"
          label={label}
          inputMode="numeric"
          autoComplete="one-time-code"
          error={disable.errorOf('code')}
        />
        <SubmitButton pending={disable.pending}>{t('account.totp.turnOff')}</SubmitButton>
      </form>
    </details>
  );
}

/** The first step, while the app is off: what it is for and the button that starts enrolling. */
function SetUp({ start }: { start: UseMutationResult<TotpEnrolment, Error, void> }) {
  return (
    <>
      <p>{t('account.totp.intro')}</p>
      {start.isError && (
        <ProblemDisplay problem={problemOf(start.error)} afterReauth={() => start.mutate()} />
      )}
      <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
        {t('account.totp.setUp')}
      </button>
    </>
  );
}

/**
 * The authenticator app (TOTP): enrol with a QR code and a first code, or turn it off with a current code.
 * Either change is acknowledged by a notice; the form that made it leaves, so focus goes to the section's
 * heading rather than to the top of the page.
 */
export function TotpSection() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const heading = useRef<HTMLHeadingElement>(null);
  const status = useQuery(authQueries.totp());
  const changed = (notice: string) => {
    heading.current?.focus();
    notify.success(notice);
    void queryClient.invalidateQueries({ queryKey: accountKeys.me() });
    void queryClient.invalidateQueries({ queryKey: authKeys.totp() });
  };
  const start = useMutation({ mutationFn: () => api.auth.totp.start() });
  const confirm = useApiForm(
    (values) => api.auth.totp.confirm(values.text('totp_code').replace(/\s+/g, '')),
    {
      onSuccess: () => {
        disable.reset();
        changed(t('account.totp.turnedOnNotice'));
      },
    },
  );
  const disable = useApiForm(
    (values) => api.auth.totp.disable(values.text('disable_code').replace(/\s+/g, '')),
    {
      onSuccess: () => {
        start.reset();
        confirm.reset();
        changed(t('account.totp.turnedOff'));
      },
    },
  );
  const title = (
    <h2 id="totp-title" ref={heading} tabIndex={-1}>
      {t('account.totp.title')}
    </h2>
  );
  if (status.data === undefined) {
    return (
      <section aria-labelledby="totp-title">
        {title}
        {status.isError ? <ProblemDisplay problem={problemOf(status.error)} /> : <p>{t('common.loading')}</p>}
      </section>
    );
  }
  // What the server says, unless this page has just changed it (the answer is on its way).
  const enabled =
    confirm.result !== undefined ? true : disable.result !== undefined ? false : status.data.enabled;
  return (
    <section aria-labelledby="totp-title">
      {title}
      {enabled && confirm.result === undefined && <p>{t('account.totp.isOn')}</p>}
      {confirm.result !== undefined ? (
        <>
          <p className="notice">{t('account.totp.turnedOn')}</p>
          {confirm.result.recovery_codes !== undefined && (
            <RecoveryCodesShown codes={confirm.result.recovery_codes} />
          )}
        </>
      ) : enabled ? null : start.data === undefined ? (
        <SetUp start={start} />
      ) : (
        <Enrolment enrolment={start.data} confirm={confirm} />
      )}
      {enabled && <TurnOff disable={disable} />}
    </section>
  );
}
