import { runDevicesSuite } from './devices.suite.js';

runDevicesSuite('memory');
