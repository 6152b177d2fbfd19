import { describe, expect, it } from 'vitest';
import { NODE_LOG_ANSWER_IPS_ACCEPTED, NodeLogBatchRow, queryNameProblem } from '../src/index.js';

describe(queryNameProblem.name, () => {
  it.each([
    '',
    '.',
    'example.com',
    'www.example.com.',
    '_dmarc.example.com',
    '*.example.com',
    '0/25.2.0.192.in-addr.arpa',
    'a\\.b.example',
    'odd\\032label.example',
    '1.2.3.4',
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
  ])('takes %j, as a resolver writes a name it received', (name) => {
    expect(queryNameProblem(name)).toBeNull();
  });

  it.each([
    ['not a name!', '" "'],
    ['a..b', 'empty label'],
    ['<script>.example', '"<"'],
    [`${'a'.repeat(64)}.example`, 'longer than 63'],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, 'longer than 255'],
    ['bad\\999.example', 'escape'],
    ['trailing\\', 'escape'],
  ])('refuses %j', (name, why) => {
    expect(queryNameProblem(name)).toContain(why);
  });
});

describe('NodeLogBatchRow', () => {
  const row = {
    ts: '2026-01-01T00:00:00.000Z',
    row_id: '1',
    transport: 'do53',
    qname: 'example.com',
    qtype: 1,
    status: 'allowed',
    rcode: 0,
  };

  it('takes an answer as long as a DNS message allows, and addresses only', () => {
    const most = Array.from({ length: NODE_LOG_ANSWER_IPS_ACCEPTED }, () => '2001:db8::1');
    expect(NodeLogBatchRow.safeParse({ ...row, client_ip: '192.0.2.1', answer_ips: most }).success).toBe(
      true,
    );
    expect(NodeLogBatchRow.safeParse({ ...row, client_ip: '' }).success).toBe(true);
    expect(NodeLogBatchRow.safeParse({ ...row, client_ip: 'banana' }).success).toBe(false);
    expect(NodeLogBatchRow.safeParse({ ...row, answer_ips: ['example.com'] }).success).toBe(false);
  });
});
