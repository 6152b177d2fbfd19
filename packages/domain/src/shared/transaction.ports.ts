/**
 * Runs work in one storage transaction offering `Scope`: what a use case declares it needs, and nothing more
 * (Kratos' provider style, docs/adr/0023). Everything used inside `run` commits or rolls back together. The
 * storage's {@link UnitOfWork} offers every repository, so it serves each narrower scope.
 */
export interface ScopedUnitOfWork<Scope> {
  run<T>(work: (tx: Scope) => Promise<T>): Promise<T>;
}
