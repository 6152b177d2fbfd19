import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runWebhooksSuite } from './webhooks.suite.js';

runWebhooksSuite('postgres', { skip: postgresServerSkipReason !== undefined });
