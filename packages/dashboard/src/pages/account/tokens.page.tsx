import type { Scope } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { tokensKeys, tokensQueries } from '../../api/tokens.queries.js';
import { CopyButton } from '../../components/copy-button.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { fieldId } from '../../forms/field-id.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { useAccount } from '../../session/use-account.js';
import { AccountTabs } from './account-tabs.js';

/** The scopes a person may grant (spec 5.4), in words. `admin` is offered to operators only. */
const SCOPES: readonly { scope: Scope; label: string; operatorOnly?: boolean }[] = [
  { scope: 'profiles:read', label: 'Read profiles, rules, lists, linked IPs and nodes' },
  { scope: 'profiles:write', label: 'Change profiles; create and revoke nodes; link addresses' },
  { scope: 'account:read', label: "List the account's tokens and read the audit log" },
  { scope: 'logs:read', label: 'Read query logs and the live stream' },
  { scope: 'analytics:read', label: 'Read analytics' },
  { scope: 'admin', label: 'Operator routes (needs a strong sign-in)', operatorOnly: true },
];

const LABELS = { name: 'Token name', scopes: 'Scopes', expires_at: 'Expires on' };

function isScope(value: string): value is Scope {
  return SCOPES.some((entry) => entry.scope === value);
}

/** API tokens: create with scopes (the secret is shown once, with a copy button), list, revoke. */
export default function TokensPage() {
  const queryClient = useQueryClient();
  const account = useAccount();
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
  const revoke = useMutation({ mutationFn: (id: string) => api.tokens.revoke(id), onSuccess: refresh });
  const scopesError = create.errorOf('scopes');
  const operator = account.data?.is_admin === true;

  return (
    <>
      <h1>API tokens</h1>
      <AccountTabs />
      <p>
        A token lets a script or an integration use the API as you, within the scopes you choose. Treat it
        like a password.
      </p>
      {create.result !== undefined && create.problem === null && (
        <section className="notice" aria-labelledby="secret-title">
          <h2 id="secret-title">Your new token {create.result.token.name}</h2>
          <p>Copy it now: it is shown only this once.</p>
          <TextField
            name="token_secret"
            label="Token secret"
            readOnly
            value={create.result.secret}
            className="secret"
            spellCheck={false}
          />
          <CopyButton text={create.result.secret} label="Copy the token" />
        </section>
      )}
      <section aria-labelledby="create-token-title">
        <h2 id="create-token-title">Create a token</h2>
        <FormProblem form={create} labels={LABELS} />
        <form onSubmit={create.onSubmit} noValidate>
          <TextField
            name="name"
            label={LABELS.name}
            hint="What uses it, for example Home Assistant."
            error={create.errorOf('name')}
          />
          <fieldset
            id={fieldId('scopes')}
            className={scopesError === undefined ? 'field' : 'field field-invalid'}
          >
            <legend>{LABELS.scopes}</legend>
            {scopesError !== undefined && (
              <p className="field-error">
                <span className="visually-hidden">Error: </span>
                Scopes {scopesError}
              </p>
            )}
            {SCOPES.filter((entry) => entry.operatorOnly !== true || operator).map((entry) => (
              <div className="checkbox" key={entry.scope}>
                <input id={`scope-${entry.scope}`} type="checkbox" name="scopes" value={entry.scope} />
                <label htmlFor={`scope-${entry.scope}`}>
                  <code>{entry.scope}</code>: {entry.label}
                </label>
              </div>
            ))}
          </fieldset>
          <TextField
            name="expires_at"
            label={LABELS.expires_at}
            hint="Optional: leave empty for a token that does not expire."
            type="date"
            error={create.errorOf('expires_at')}
          />
          <SubmitButton pending={create.pending}>Create token</SubmitButton>
        </form>
      </section>
      <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">Your tokens</h2>
        {tokens.isError && (
          <ProblemDisplay problem={problemOf(tokens.error)} onRetry={() => void tokens.refetch()} />
        )}
        {revoke.isError && <ProblemDisplay problem={problemOf(revoke.error)} />}
        {tokens.data !== undefined &&
          (tokens.data.length === 0 ? (
            <p>You have no API token.</p>
          ) : (
            <TableScroll label="API tokens">
              <table>
                <caption>API tokens</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Starts with</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {tokens.data.map((token) => (
                    <tr key={token.id}>
                      <td>{token.name}</td>
                      <td>
                        <code>{token.prefix}…</code>
                      </td>
                      <td>{token.scopes.join(', ')}</td>
                      <td>
                        <DateTime value={token.last_used_at} fallback="never" />
                      </td>
                      <td>
                        <DateTime value={token.expires_at} fallback="never" />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="danger"
                          disabled={revoke.isPending}
                          onClick={() => revoke.mutate(token.id)}
                          aria-label={`Revoke ${token.name}`}
                        >
                          Revoke
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ))}
      </section>
    </>
  );
}
