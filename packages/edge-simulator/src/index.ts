export * from './clickhouse.simulated-log-writer.js';
export * from './edge-simulation.js';
export * from './edge-simulator.service.js';
export * from './seeded-random.js';
export * from './simulated-decisions.js';
export * from './simulated-log-writer.ports.js';
export * from './simulated-names.js';
export { TrafficModels } from './simulation-traffic.js';
