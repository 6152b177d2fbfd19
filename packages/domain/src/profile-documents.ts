// The schema of the node profile document, for the node kit to check what it reads without the rest of the
// domain (bundled into the kit like `./filtering`).
export { NodeProfileDocument } from './nodes/node.schemas.js';
