import { QrCode } from '../../components/qr-code.js';
import { t } from '../../i18n/t.js';

/** QR codes for a phone: this page's address (to download the profile there) and Android's Private DNS host. */
export default function PhoneSetup({ pageUrl, androidHost }: { pageUrl: string; androidHost: string }) {
  return (
    <div className="qr-pair">
      <figure>
        <QrCode value={pageUrl} label={t('profiles.overview.qrPage')} />
        <figcaption>{t('profiles.overview.qrPageCaption')}</figcaption>
      </figure>
      <figure>
        <QrCode value={androidHost} label={t('profiles.overview.qrAndroid')} />
        <figcaption>{t('profiles.overview.qrAndroidCaption')}</figcaption>
      </figure>
    </div>
  );
}
