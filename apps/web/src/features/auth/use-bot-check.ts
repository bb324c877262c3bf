import { messages } from '@bytegate/contracts/messages';
import { useEffect, useState } from 'react';
import { useConfig } from '../../api/use-config.ts';
import { type BotCheckAction, getRecaptchaToken, loadRecaptcha } from './recaptcha.ts';

/**
 * The bot check of a form: loads reCAPTCHA only when the server has a site key, and asks for a token
 * per submission. `error` says when the challenge could not load.
 */
export function useBotCheck(action: BotCheckAction) {
  const { data: config, isPending } = useConfig();
  const siteKey = config?.recaptchaSiteKey ?? null;
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (siteKey) {
      loadRecaptcha(siteKey).catch(() => setLoadError(messages.recaptchaLoadFailed));
    }
  }, [siteKey]);

  return {
    isReady: !isPending,
    error: loadError,
    async getToken(): Promise<string | undefined> {
      try {
        return await getRecaptchaToken(siteKey, action);
      } catch {
        setLoadError(messages.recaptchaLoadFailed);
        throw new Error(messages.recaptchaLoadFailed);
      }
    },
  };
}
