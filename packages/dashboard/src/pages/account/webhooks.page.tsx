import { WEBHOOK_EVENT_TYPES, type Webhook, type WebhookEventType, type WebhookWithSecret } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { webhooksKeys, webhooksQueries } from '../../api/webhooks.queries.js';
import { CopyButton } from '../../components/copy-button.js';
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
import { AccountTabs } from './account-tabs.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

function isEventType(value: string): value is WebhookEventType {
  return WEBHOOK_EVENT_TYPES.some((type) => type === value);
}

const LABELS = {
  url: t('webhooks.url'),
  events: t('webhooks.events'),
  description: t('webhooks.description'),
};

/** The new endpoint's signing secret, shown once with a copy button. */
function NewSecret({ created }: { created: WebhookWithSecret }) {
  return (
    <section className="notice" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">{t('webhooks.secretTitle', { url: created.url })}</h2>
      <p>{t('webhooks.secretOnce')}</p>
      <TextField
        name="webhook_secret"
        label={t('webhooks.secret')}
        readOnly
        value={created.secret}
        className="secret"
        spellCheck={false}
      />
      <CopyButton text={created.secret} label={t('webhooks.copy')} />
    </section>
  );
}

/** The event types to subscribe to, as checkboxes, with the API's message about them. */
function EventsField({ error }: { error: string | undefined }) {
  return (
    <fieldset id={fieldId('events')} className={error === undefined ? 'field' : 'field field-invalid'}>
      <legend>{LABELS.events}</legend>
      {error !== undefined && (
        <p className="field-error">
          <span className="visually-hidden">{t('webhooks.fieldError')}</span>
          {LABELS.events} {error}
        </p>
      )}
      {WEBHOOK_EVENT_TYPES.map((type) => (
        <div className="checkbox" key={type}>
          <input id={`event-${type}`} type="checkbox" name="events" value={type} />
          <label htmlFor={`event-${type}`}>
            <code>{type}</code>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function CreateWebhook({ create }: { create: ApiForm<WebhookWithSecret> }) {
  return (
    <section aria-labelledby="create-webhook-title">
      <h2 id="create-webhook-title">{t('webhooks.create')}</h2>
      <FormProblem form={create} labels={LABELS} />
      <form onSubmit={create.onSubmit} noValidate>
        <TextField name="url" label={LABELS.url} hint={t('webhooks.urlHint')} error={create.errorOf('url')} />
        <EventsField error={create.errorOf('events')} />
        <TextField name="description" label={LABELS.description} error={create.errorOf('description')} />
        <SubmitButton pending={create.pending}>{t('webhooks.submit')}</SubmitButton>
      </form>
    </section>
  );
}

/** Endpoints: add one (its secret shown once), send a test, read its deliveries and redeliver, delete. */
export default function WebhooksPage() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [shown, setShown] = useState<Webhook | null>(null);
  const webhooks = useQuery(webhooksQueries.list());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
  const create = useApiForm(
    (values) =>
      api.webhooks.create({
        url: values.text('url'),
        events: values.all('events').filter(isEventType),
        description: values.text('description'),
      }),
    { onSuccess: refresh, resetOnSuccess: true },
  );
  const ping = useMutation({
    mutationFn: (webhook: Webhook) => api.webhooks.test(webhook.id),
    onSuccess: (_, webhook) => {
      refresh();
      notify.success(t('webhooks.tested', { url: webhook.url }));
    },
  });
  const remove = useMutation({
    mutationFn: (webhook: Webhook) => api.webhooks.delete(webhook.id),
    onSuccess: (_, webhook) => {
      if (shown?.id === webhook.id) setShown(null);
      refresh();
      notify.success(t('webhooks.deleted', { url: webhook.url }));
    },
  });
  const busy = ping.isPending || remove.isPending;
  return (
    <>
      <h1>{t('webhooks.title')}</h1>
      <AccountTabs />
      <p>{t('webhooks.intro')}</p>
      {create.result !== undefined && create.problem === null && <NewSecret created={create.result} />}
      <CreateWebhook create={create} />
      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">{t('webhooks.yours')}</h2>
        {webhooks.isError && <ProblemDisplay problem={problemOf(webhooks.error)} />}
        {ping.isError && <ProblemDisplay problem={problemOf(ping.error)} />}
        {remove.isError && <ProblemDisplay problem={problemOf(remove.error)} />}
        {webhooks.data !== undefined &&
          (webhooks.data.length === 0 ? (
            <p>{t('webhooks.none')}</p>
          ) : (
            <ResponsiveTable
              caption={t('webhooks.caption')}
              rows={webhooks.data}
              rowKey={(webhook) => webhook.id}
              columns={[
                { header: LABELS.url, cell: (webhook) => <code>{webhook.url}</code> },
                { header: LABELS.events, cell: (webhook) => webhook.events.join(', ') },
                {
                  header: t('webhooks.state'),
                  cell: (webhook) => t(webhook.enabled ? 'webhooks.enabled' : 'webhooks.disabled'),
                },
                {
                  header: t('webhooks.action'),
                  cell: (webhook) => (
                    <>
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => ping.mutate(webhook)}
                        aria-label={t('webhooks.testNamed', { url: webhook.url })}
                      >
                        {t('webhooks.test')}
                      </button>
                      <button
                        type="button"
                        onClick={() => setShown(webhook)}
                        aria-label={t('webhooks.showDeliveriesNamed', { url: webhook.url })}
                      >
                        {t('webhooks.showDeliveries')}
                      </button>
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        onClick={() => remove.mutate(webhook)}
                        aria-label={t('webhooks.deleteNamed', { url: webhook.url })}
                      >
                        {t('webhooks.delete')}
                      </button>
                    </>
                  ),
                },
              ]}
            />
          ))}
      </section>
      {shown !== null && <WebhookDeliveries webhook={shown} />}
    </>
  );
}
