import { runDeviceRepositoryContract } from './contracts/device-repository.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('DeviceRepository contract', runDeviceRepositoryContract);
