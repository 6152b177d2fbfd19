import { readFileSync } from 'node:fs';
import { ROLE_MATRIX, roleAtLeast, roleRequirementOf } from '@svc/domain';
import { describe, expect, it } from 'vitest';

const roles = readFileSync(new URL('../../docs/roles.md', import.meta.url), 'utf8');

describe('docs/roles.md (issue 39): the role matrix as people read it', () => {
  it('names every operation of ROLE_MATRIX, under the heading of its requirement', () => {
    const sections = roles.split(/^## /m);
    const sectionOf = (operation: string) => sections.find((section) => section.includes(`\`${operation}\``));
    const headings: Record<string, string> = {
      viewer: 'Every member',
      editor: 'Editors and above',
      admin: 'Admins and the owner',
      owner: 'The owner only',
      self: 'Operations on the caller',
      operator: 'Operator, public and node',
      public: 'Operator, public and node',
      node: 'Operator, public and node',
    };
    const misplaced = Object.entries(ROLE_MATRIX)
      .filter(([operation, requirement]) => !sectionOf(operation)?.startsWith(headings[requirement] ?? '?'))
      .map(([operation]) => operation);
    expect(misplaced, 'update docs/roles.md from ROLE_MATRIX').toEqual([]);
  });

  it('an operation missing from the matrix needs the owner (closed rather than open)', () => {
    expect(roleRequirementOf('post', '/v1/not-in-the-matrix')).toBe('owner');
    expect(roleAtLeast('admin', 'owner')).toBe(false);
  });
});
