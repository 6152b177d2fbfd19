import type { Webhook, WebhookDelivery } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { webhooksKeys, webhooksQueries } from '../../api/webhooks.queries.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { useNotify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** One endpoint's deliveries, newest first, each settled one with its Redeliver button. */
export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const deliveries = useQuery(webhooksQueries.deliveries(webhook.id));
  const redeliver = useMutation({
    mutationFn: (delivery: WebhookDelivery) => api.webhooks.redeliver(webhook.id, delivery.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(webhook.id) });
      notify.success(t('webhooks.redelivered'));
    },
  });
  const titleId = `deliveries-${webhook.id}`;
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId}>{t('webhooks.deliveriesTitle', { url: webhook.url })}</h3>
      {deliveries.isError && <ProblemDisplay problem={problemOf(deliveries.error)} />}
      {redeliver.isError && <ProblemDisplay problem={problemOf(redeliver.error)} />}
      {deliveries.data !== undefined &&
        (deliveries.data.length === 0 ? (
          <p>{t('webhooks.deliveriesNone')}</p>
        ) : (
          <ResponsiveTable
            caption={t('webhooks.deliveriesTitle', { url: webhook.url })}
            captionHidden
            rows={deliveries.data}
            rowKey={(delivery) => delivery.id}
            columns={[
              { header: t('webhooks.event'), cell: (delivery) => <code>{delivery.event_type}</code> },
              { header: t('webhooks.status'), cell: (delivery) => delivery.status },
              { header: t('webhooks.response'), cell: (delivery) => delivery.response_status ?? '' },
              { header: t('webhooks.attempts'), cell: (delivery) => delivery.attempt },
              {
                header: t('webhooks.duration'),
                cell: (delivery) =>
                  delivery.duration_ms === null ? '' : t('webhooks.durationMs', { ms: delivery.duration_ms }),
              },
              { header: t('webhooks.error'), cell: (delivery) => delivery.error ?? '' },
              {
                header: t('webhooks.action'),
                cell: (delivery) =>
                  delivery.status === 'pending' ? (
                    <DateTime value={delivery.next_attempt_at} fallback={t('webhooks.waiting')} />
                  ) : (
                    <button
                      type="button"
                      disabled={redeliver.isPending}
                      onClick={() => redeliver.mutate(delivery)}
                      aria-label={t('webhooks.redeliverNamed', {
                        event: delivery.event_type,
                        id: delivery.id,
                      })}
                    >
                      {t('webhooks.redeliver')}
                    </button>
                  ),
              },
            ]}
          />
        ))}
    </section>
  );
}
