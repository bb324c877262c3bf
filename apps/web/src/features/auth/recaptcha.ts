interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | null = null;

/** Loads reCAPTCHA v3 for a site key once; the promise rejects when the script cannot load. */
export function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const grecaptcha = window.grecaptcha;
      if (grecaptcha) {
        grecaptcha.ready(() => resolve(grecaptcha));
      } else {
        reject(new Error('reCAPTCHA did not initialize'));
      }
    };
    script.onerror = () => reject(new Error('reCAPTCHA failed to load'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null; // let a later attempt try again
    throw error;
  });
  return loading;
}

/** The forms with a bot check: the action each declares, which the server checks the token was made for. */
export type BotCheckAction = 'login' | 'signup' | 'password_reset' | 'sign_in_link';

/**
 * A fresh token for one action ('login', 'signup' or 'password_reset'), asked for at submit time as Google requires.
 * No site key means no bot check: answers undefined.
 */
export async function getRecaptchaToken(
  siteKey: string | null,
  action: BotCheckAction,
): Promise<string | undefined> {
  if (!siteKey) {
    return undefined;
  }
  const grecaptcha = await loadRecaptcha(siteKey);
  return grecaptcha.execute(siteKey, { action });
}
