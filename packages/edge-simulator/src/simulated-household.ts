import { type DeviceIdentification, type DeviceTransport, deviceIdOf, sanitiseDeviceName } from '@svc/domain';
import type { SeededRandom } from './seeded-random.js';

// The household a simulation's queries come from: its devices, how each connects, and the client addresses
// the edge sees (the home's, and the mobile devices' own).

/** Household devices: name as the client sends it, and how it connects. */
const DEVICE_TEMPLATES: readonly [name: string, transport: DeviceTransport, mobile: boolean][] = [
  ["Alice's iPhone", 'doh3', true],
  ['living-room-tv', 'dot', false],
  ['Work Laptop', 'doh', false],
  ['Kitchen Speaker', 'doq', false],
  ["Ben's Pixel 8", 'dot', true],
  ['Family iPad', 'doh', false],
  ['home-router', 'dot', false],
  ['Study Desktop', 'doh3', false],
  ["Grandma's Tablet", 'doh', true],
  ['Xbox Series X', 'doq', false],
  ['office-mac', 'doh', false],
  ['Guest Phone', 'doh3', true],
];

/** A simulated device. */
export interface SimulatedDevice {
  id: string;
  /** As the client sends it (before sanitising). */
  rawName: string;
  name: string;
  transport: DeviceTransport;
  identification: DeviceIdentification;
}

/** A simulated device with what the simulation tracks of it. */
export interface DeviceState extends SimulatedDevice {
  mobile: boolean;
  /** Code of its mobile address in the client IP dictionary (the home address is code 1). */
  mobileIpCode: number;
  /** Index of its usual PoP. */
  pop: number;
  firstSeen: number;
  lastSeen: number;
}

/** The devices of a household and the addresses they query from. */
export interface SimulatedHousehold {
  devices: DeviceState[];
  /** Client addresses: none (not logged), the household's, then the mobile devices' own. */
  clientIps: string[];
  /** Index of the household's PoP (every device's usual one, and that of queries without a device). */
  homePop: number;
}

/**
 * A household of `devices` devices named after the templates (a number appended past the first round), its
 * home address and PoP drawn from `setup`: the same draws in the same order give the same household.
 */
export function simulatedHousehold(
  devices: number,
  setup: SeededRandom,
  popCount: number,
  sha256: (data: string) => string,
): SimulatedHousehold {
  const home = `24.${48 + setup.int(16)}.${setup.int(256)}.${1 + setup.int(254)}`;
  const homePop = setup.int(popCount);
  const clientIps = ['', home];
  const states = Array.from({ length: devices }, (_unused, index): DeviceState => {
    const [base, transport, mobile] = DEVICE_TEMPLATES[index % DEVICE_TEMPLATES.length] as [
      string,
      DeviceTransport,
      boolean,
    ];
    const round = Math.floor(index / DEVICE_TEMPLATES.length);
    const rawName = round === 0 ? base : `${base} ${round + 1}`;
    const name = sanitiseDeviceName(rawName);
    let mobileIpCode = 1;
    if (mobile) {
      mobileIpCode = clientIps.length;
      clientIps.push(`2607:fea8:${setup.int(0x10000).toString(16)}:${setup.int(0x10000).toString(16)}::1`);
    }
    return {
      id: deviceIdOf(name, sha256),
      rawName,
      name,
      transport,
      identification: transport === 'dot' || transport === 'doq' ? 'sni' : 'doh_path',
      mobile,
      mobileIpCode,
      pop: homePop,
      firstSeen: Number.POSITIVE_INFINITY,
      lastSeen: Number.NEGATIVE_INFINITY,
    };
  });
  return { devices: states, clientIps, homePop };
}
