export { runMigrate } from './commands/migrate.command.js';
export * from './output.js';
export * from './program.js';
