import { runWebhooksSuite } from './webhooks.suite.js';

runWebhooksSuite('memory');
