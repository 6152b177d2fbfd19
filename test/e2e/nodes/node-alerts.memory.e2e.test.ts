import { runNodeAlertSuite } from './node-alerts.suite.js';

runNodeAlertSuite('memory');
