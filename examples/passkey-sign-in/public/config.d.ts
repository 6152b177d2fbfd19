/** The API's origin, served by server.ts as /config.js from SVC_API_URL. */
export declare const API: string;
