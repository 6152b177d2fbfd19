import { encode } from 'uqr';

/**
 * A QR code drawn as one SVG path (no image, no inline style: the page's CSP allows neither from elsewhere),
 * with `label` as its accessible name. Four modules of quiet zone, as scanners expect.
 */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const { data } = encode(value, { border: 4, ecc: 'M' });
  const modules = data.length;
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
