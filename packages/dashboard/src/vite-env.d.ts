/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's base address when the dashboard is hosted apart from it; unset, the page's own origin. */
  readonly VITE_SVC_API_URL?: string;
}
