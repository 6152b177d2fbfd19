import { createHash, createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CborValue, encodeCbor, SoftwareAuthenticator } from '../../support/software-authenticator.js';

const hex = (value: CborValue) => encodeCbor(value).toString('hex');

describe(SoftwareAuthenticator.name, () => {
  it('encodes CBOR as the examples of RFC 8949 appendix A', () => {
    expect(hex(0)).toBe('00');
    expect(hex(23)).toBe('17');
    expect(hex(24)).toBe('1818');
    expect(hex(100)).toBe('1864');
    expect(hex(1000)).toBe('1903e8');
    expect(hex(1_000_000)).toBe('1a000f4240');
    expect(hex(1_000_000_000_000)).toBe('1b000000e8d4a51000');
    expect(hex(-1)).toBe('20');
    expect(hex(-10)).toBe('29');
    expect(hex(-100)).toBe('3863');
    expect(hex(-1000)).toBe('3903e7');
    expect(hex(new Uint8Array())).toBe('40');
    expect(hex(Uint8Array.from([1, 2, 3, 4]))).toBe('4401020304');
    expect(hex('')).toBe('60');
    expect(hex('a')).toBe('6161');
    expect(hex('IETF')).toBe('6449455446');
    expect(hex('ü')).toBe('62c3bc');
    expect(hex([])).toBe('80');
    expect(hex([1, 2, 3])).toBe('83010203');
    expect(hex([1, [2, 3], [4, 5]])).toBe('8301820203820405');
    expect(hex(Array.from({ length: 25 }, (_, index) => index + 1))).toBe(
      '98190102030405060708090a0b0c0d0e0f101112131415161718181819',
    );
    expect(hex(new Map())).toBe('a0');
    expect(
      hex(
        new Map<CborValue, CborValue>([
          [1, 2],
          [3, 4],
        ]),
      ),
    ).toBe('a201020304');
    expect(
      hex(
        new Map<CborValue, CborValue>([
          ['a', 1],
          ['b', [2, 3]],
        ]),
      ),
    ).toBe('a26161016162820203');
  });

  it('signs authData || SHA-256(clientDataJSON) with a key its COSE public key names', () => {
    const authenticator = new SoftwareAuthenticator();
    const cose = authenticator.cosePublicKey();
    // a5 (map of 5) 01 02 03 26 20 01 21 58 20 <x> 22 58 20 <y>
    expect(cose).toHaveLength(77);
    expect(cose.subarray(0, 10).toString('hex')).toBe('a5010203262001215820');
    expect(cose.subarray(42, 45).toString('hex')).toBe('225820');
    const x = cose.subarray(10, 42).toString('base64url');
    const y = cose.subarray(45, 77).toString('base64url');
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });

    const assertion = authenticator.authenticate({ challenge: 'Y2hhbGxlbmdl', rpId: 'localhost' });
    const authData = Buffer.from(assertion.response.authenticatorData, 'base64url');
    const clientData = Buffer.from(assertion.response.clientDataJSON, 'base64url');
    expect(JSON.parse(clientData.toString('utf8'))).toMatchObject({
      type: 'webauthn.get',
      challenge: 'Y2hhbGxlbmdl',
      origin: 'http://localhost:3000',
    });
    expect(authData.subarray(0, 32)).toEqual(createHash('sha256').update('localhost').digest());
    expect(authData[32]).toBe(0x05);
    expect(authData.readUInt32BE(33)).toBe(1);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    const signature = Buffer.from(assertion.response.signature, 'base64url');
    expect(signature[0]).toBe(0x30); // DER SEQUENCE
    expect(verify('sha256', signed, { key, dsaEncoding: 'der' }, signature)).toBe(true);
  });
});
