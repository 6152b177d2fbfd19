import type pg from 'pg';

/**
 * Runs every query of `client` as an unnamed statement (the `name` of a query config is dropped). For the
 * embedded PGlite only: when a named statement's Bind fails (a parameter PostgreSQL refuses, such as text
 * holding U+0000), pglite-socket answers the error without the ParseComplete that a server sends first, so pg
 * never records the statement PGlite did keep, and every later use of that name fails with "prepared
 * statement … already exists" on the one connection the embedded default has: one bad value would turn
 * every later request using that query into a 500 until a restart. Unnamed statements are parsed on each
 * call instead, which PGlite does in-process.
 */
export function runStatementsUnnamed(client: pg.ClientBase): void {
  const query: (...args: unknown[]) => unknown = client.query.bind(client);
  Object.defineProperty(client, 'query', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]): unknown => {
      const [statement, ...rest] = args;
      if (
        typeof statement !== 'object' ||
        statement === null ||
        !('name' in statement) ||
        'submit' in statement
      )
        return query(...args);
      const { name: _name, ...unnamed } = statement;
      return query(unnamed, ...rest);
    },
  });
}
