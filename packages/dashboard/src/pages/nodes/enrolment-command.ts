/**
 * The command that starts the reference node (examples/reference-node) with a fresh enrolment code: the node
 * exchanges the code for its own token on first start and keeps it in its data folder afterwards.
 */
export function enrolmentCommand(baseUrl: string, enrolmentCode: string): string {
  return `SVC_API_URL=${baseUrl} NODE_ENROLMENT_CODE=${enrolmentCode} npm start -w examples/reference-node`;
}
