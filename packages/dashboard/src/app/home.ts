// Apart from the route table, which loads the pages: a page that sends visitors home imports this, not the table.

/** Where a signed-in visitor lands (after sign-in, and at `/`). */
export const HOME = '/profiles';
