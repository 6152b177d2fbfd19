/**
 * The parsed type of a zod schema, exactly as `z.infer` / `z.output` computes it (zod reads `_zod.output` the
 * same way). Spelled out here so that the SDK takes its types from the domain's schemas without depending on
 * zod. Internal: the SDK exports the named types built with it.
 */
export type SchemaOutput<Schema> = Schema extends { _zod: { output: infer Output } } ? Output : never;

/**
 * What a zod schema accepts, as `z.input` computes it: fields with a server-side default are optional. Request
 * bodies are typed with it, so a caller may leave out whatever the server fills in.
 */
export type SchemaInput<Schema> = Schema extends { _zod: { input: infer Input } } ? Input : never;
