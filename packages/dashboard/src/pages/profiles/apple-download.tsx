import { useState } from 'react';
import { api } from '../../api/client.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { type DisplayProblem, problemOf } from '../../problems/problem-of.js';

/**
 * Downloads the profile's Apple configuration profile (`.mobileconfig`) through the SDK and hands it to the
 * browser as a file, so that it works the same when the dashboard is hosted apart from the API.
 */
export function AppleDownload({ profileId, profileName }: { profileId: string; profileName: string }) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<DisplayProblem | null>(null);
  const download = async () => {
    setPending(true);
    setProblem(null);
    try {
      const text = await api.profiles.appleConfiguration(profileId);
      const url = URL.createObjectURL(new Blob([text], { type: 'application/x-apple-aspen-config' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `svc-${profileName.replace(/[^A-Za-z0-9_-]+/g, '-')}-${profileId}.mobileconfig`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      {problem !== null && <ProblemDisplay problem={problem} onRetry={() => void download()} />}
      <button
        type="button"
        className="primary"
        onClick={() => void download()}
        disabled={pending}
        aria-busy={pending}
      >
        {pending ? t('profiles.overview.downloading') : t('profiles.overview.download')}
      </button>
    </>
  );
}
