import { postgresServerSkipReason } from '@svc/testing/postgres';
import { runDevicesSuite } from './devices.suite.js';

runDevicesSuite('postgres', { skip: postgresServerSkipReason !== undefined });
