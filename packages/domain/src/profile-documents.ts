// The schemas of the profile documents, for the node kit to check what it reads without the rest of the domain.
export { NodeProfileDocument } from './nodes/node.schemas.js';
export {
  EdgeDocumentHead,
  EdgeProfileDocument,
  EdgeTombstone,
} from './profiles/edge-document.schemas.js';
