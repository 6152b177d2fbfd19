import { QrCode } from '../../components/qr-code.js';

/** QR codes for a phone: this page's address (to download the profile there) and Android's Private DNS host. */
export default function PhoneSetup({ pageUrl, androidHost }: { pageUrl: string; androidHost: string }) {
  return (
    <div className="qr-pair">
      <figure>
        <QrCode value={pageUrl} label="QR code opening this setup page on a phone" />
        <figcaption>Scan to open this page on your phone, then download the profile there.</figcaption>
      </figure>
      <figure>
        <QrCode value={androidHost} label="QR code of the Android Private DNS host name" />
        <figcaption>Android: scan, copy the host name, paste it in Private DNS.</figcaption>
      </figure>
    </div>
  );
}
