import { postgresServerSkipReason } from '../../../packages/adapters/tests/support/postgres-server.js';
import { runDevicesSuite } from './devices.suite.js';

runDevicesSuite('postgres', { skip: postgresServerSkipReason !== undefined });
