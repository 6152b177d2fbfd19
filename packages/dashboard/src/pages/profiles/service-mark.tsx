import { SERVICE_LOGOS } from './service-logos.js';

/**
 * A service's logo (Simple Icons), or a neutral letter mark when it has none. Decorative: the service's name is
 * always written beside it.
 */
export function ServiceMark({ id, name }: { id: string; name: string }) {
  const logo = SERVICE_LOGOS[id];
  if (logo === undefined)
    return (
      <span className="service-logo service-letter" aria-hidden="true" data-mark="letter">
        {name.trim().charAt(0).toUpperCase()}
      </span>
    );
  return (
    <span className="service-logo" aria-hidden="true" data-mark="logo">
      <svg viewBox="0 0 24 24" focusable="false" aria-hidden="true">
        <path d={logo.path} />
      </svg>
    </span>
  );
}
