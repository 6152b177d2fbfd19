import { UndiciWebhookSender } from '@svc/adapters';
import {
  Clock,
  type CursorSealer,
  Random,
  SecretBox,
  UnitOfWork,
  WebhookDispatcher,
  WebhookSender,
  WebhookService,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { OutboundSettings } from '../settings/outbound.settings.js';
import { CursorSealerToken, WebhookDispatcherToken, WebhookServiceToken } from './use-case.tokens.js';

/**
 * Binds webhook endpoints and their dispatcher (issue 40): requests go out through undici under the outbound
 * rule of SVC_OUTBOUND_ALLOW_PRIVATE, the one the list fetcher follows.
 */
export function webhooksModule(outbound: OutboundSettings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<WebhookSender>(WebhookSender).toConstantValue(
      new UndiciWebhookSender({ allowPrivate: outbound.allowPrivate }),
    );
    bind<WebhookService>(WebhookServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        random: Random,
        clock: Clock,
        cursors: CursorSealer,
        secretBox: SecretBox,
        sender: WebhookSender,
      ) => new WebhookService({ uow, random, clock, cursors, secretBox, sender }),
      [UnitOfWork, Random, Clock, CursorSealerToken, SecretBox, WebhookSender],
    );
    bind<WebhookDispatcher>(WebhookDispatcherToken).toResolvedValue(
      (uow: UnitOfWork, sender: WebhookSender, clock: Clock, secretBox: SecretBox) =>
        new WebhookDispatcher({ uow, sender, clock, secretBox }),
      [UnitOfWork, WebhookSender, Clock, SecretBox],
    );
  });
}
