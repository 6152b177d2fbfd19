import type { Scope, TokenCreated, TokenRecord } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api } from '../../api/client.js';
import { tokensKeys, tokensQueries } from '../../api/tokens.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { CopyButton } from '../../components/copy-button.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { useNotify } from '../../feedback/notify.js';
import { fieldId } from '../../forms/field-id.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { useAccount } from '../../session/use-account.js';
import { AccountTabs } from './account-tabs.js';

/** The scopes a person may grant (spec 5.4), in words. `admin` is offered to operators only. */
const SCOPES = [
  { scope: 'profiles:read', label: 'account.tokens.scope.profilesRead' },
  { scope: 'profiles:write', label: 'account.tokens.scope.profilesWrite' },
  { scope: 'account:read', label: 'account.tokens.scope.accountRead' },
  { scope: 'logs:read', label: 'account.tokens.scope.logsRead' },
  { scope: 'analytics:read', label: 'account.tokens.scope.analyticsRead' },
  { scope: 'webhooks:read', label: 'account.tokens.scope.webhooksRead' },
  { scope: 'webhooks:write', label: 'account.tokens.scope.webhooksWrite' },
  { scope: 'admin', label: 'account.tokens.scope.admin', operatorOnly: true },
] as const satisfies readonly { scope: Scope; label: string; operatorOnly?: boolean }[];

const LABELS = {
  name: t('account.tokens.name'),
  scopes: t('account.tokens.scopes'),
  expires_at: t('account.tokens.expiresAt'),
};

function isScope(value: string): value is Scope {
  return SCOPES.some((entry) => entry.scope === value);
}

/** The new token's secret, shown once with a copy button. */
function NewSecret({ created }: { created: TokenCreated }) {
  return (
    <section className="notice" aria-labelledby="secret-title">
      <h2 id="secret-title">{t('account.tokens.secretTitle', { name: created.token.name })}</h2>
      <p>{t('account.tokens.secretOnce')}</p>
      <TextField
        name="token_secret"
        label={t('account.tokens.secret')}
        readOnly
        value={created.secret}
        className="secret"
        spellCheck={false}
      />
      <CopyButton text={created.secret} label={t('account.tokens.copy')} />
    </section>
  );
}

/** The scopes to grant, as checkboxes, with the API's message about them. */
function ScopesField({ error, operator }: { error: string | undefined; operator: boolean }) {
  return (
    <fieldset id={fieldId('scopes')} className={error === undefined ? 'field' : 'field field-invalid'}>
      <legend>{LABELS.scopes}</legend>
      {error !== undefined && (
        <p className="field-error">
          <span className="visually-hidden">{t('account.tokens.fieldError')}</span>
          {LABELS.scopes} {error}
        </p>
      )}
      {SCOPES.filter((entry) => !('operatorOnly' in entry) || operator).map((entry) => (
        <div className="checkbox" key={entry.scope}>
          <input id={`scope-${entry.scope}`} type="checkbox" name="scopes" value={entry.scope} />
          <label htmlFor={`scope-${entry.scope}`}>
            <code>{entry.scope}</code>: {t(entry.label)}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/** Creating a token: its name, scopes and optional expiry. */
function CreateToken({ create, operator }: { create: ApiForm<TokenCreated>; operator: boolean }) {
  return (
    <section aria-labelledby="create-token-title">
      <h2 id="create-token-title">{t('account.tokens.create')}</h2>
      <FormProblem form={create} labels={LABELS} />
      <form onSubmit={create.onSubmit} noValidate>
        <TextField
          name="name"
          label={LABELS.name}
          hint={t('account.tokens.nameHint')}
          error={create.errorOf('name')}
        />
        <ScopesField error={create.errorOf('scopes')} operator={operator} />
        <TextField
          name="expires_at"
          label={LABELS.expires_at}
          hint={t('account.tokens.expiresAtHint')}
          type="date"
          error={create.errorOf('expires_at')}
        />
        <SubmitButton pending={create.pending}>{t('account.tokens.submit')}</SubmitButton>
      </form>
    </section>
  );
}

/** The tokens as a table on a wide screen and cards on a phone, each with its Revoke button. */
function TokensTable({
  tokens,
  revoking,
  onRevoke,
}: {
  tokens: readonly TokenRecord[];
  revoking: boolean;
  onRevoke: (token: TokenRecord) => void;
}) {
  const never = t('account.tokens.never');
  return (
    <ResponsiveTable
      caption={t('account.tokens.caption')}
      rows={tokens}
      rowKey={(token) => token.id}
      columns={[
        { header: LABELS.name, cell: (token) => token.name },
        {
          header: t('account.tokens.startsWith'),
          cell: (token) => <code>{t('account.tokens.prefix', { prefix: token.prefix })}</code>,
        },
        { header: LABELS.scopes, cell: (token) => token.scopes.join(', ') },
        {
          header: t('account.tokens.lastUsed'),
          cell: (token) => <DateTime value={token.last_used_at} fallback={never} />,
        },
        {
          header: t('account.tokens.expires'),
          cell: (token) => <DateTime value={token.expires_at} fallback={never} />,
        },
        {
          header: t('account.tokens.action'),
          cell: (token) => (
            <ConfirmedAction
              label={t('account.tokens.revoke')}
              ariaLabel={t('account.tokens.revokeNamed', { name: token.name })}
              confirmLabel={t('account.tokens.revokeYes', { name: token.name })}
              warning={t('account.tokens.revokeWarning')}
              pending={revoking}
              onConfirm={() => onRevoke(token)}
            />
          ),
        },
      ]}
    />
  );
}

/** API tokens: create with scopes (the secret is shown once, with a copy button), list, revoke. */
export default function TokensPage() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const account = useAccount();
  // A revoked token's button leaves with its row: focus goes to the list's heading, not the page's top.
  const heading = useRef<HTMLHeadingElement>(null);
  const tokens = useQuery(tokensQueries.list());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tokensKeys.list() });
  const create = useApiForm(
    (values) => {
      const expires = values.optionalText('expires_at');
      return api.tokens.create({
        name: values.text('name'),
        scopes: values.all('scopes').filter(isScope),
        // The end of the chosen day, in the person's own time zone.
        ...(expires === undefined ? {} : { expires_at: new Date(`${expires}T23:59:59`).toISOString() }),
      });
    },
    { onSuccess: refresh, resetOnSuccess: true },
  );
  const revoke = useMutation({
    mutationFn: (token: TokenRecord) => api.tokens.revoke(token.id),
    onSuccess: (_, token) => {
      heading.current?.focus();
      refresh();
      notify.success(t('account.tokens.revoked', { name: token.name }));
    },
  });

  return (
    <>
      <h1>{t('account.tokens.title')}</h1>
      <AccountTabs />
      <p>{t('account.tokens.intro')}</p>
      {create.result !== undefined && create.problem === null && <NewSecret created={create.result} />}
      <CreateToken create={create} operator={account.data?.is_admin === true} />
      <section aria-labelledby="tokens-title">
        <h2 id="tokens-title" ref={heading} tabIndex={-1}>
          {t('account.tokens.yours')}
        </h2>
        {tokens.isError && (
          <ProblemDisplay problem={problemOf(tokens.error)} onRetry={() => void tokens.refetch()} />
        )}
        {revoke.isError && <ProblemDisplay problem={problemOf(revoke.error)} />}
        {tokens.data !== undefined &&
          (tokens.data.length === 0 ? (
            <p>{t('account.tokens.none')}</p>
          ) : (
            <TokensTable tokens={tokens.data} revoking={revoke.isPending} onRevoke={revoke.mutate} />
          ))}
      </section>
    </>
  );
}
