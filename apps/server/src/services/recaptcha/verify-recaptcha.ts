import { messages } from '@bytegate/contracts/messages';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { DomainError } from '../domain-error.ts';

// The fields of reCAPTCHA v3's siteverify answer that we rely on.
const siteverifyAnswerSchema = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  action: z.string().optional(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

export interface VerifyRecaptchaProps {
  config: Config['recaptcha'];
  token: string | undefined;
  /** The action the page declared when it asked for the token: 'login' or 'signup'. */
  action: string;
  remoteIp: string | null;
  /** The host name of our site: a token solved on another site is refused. */
  expectedHostname: string;
}

/**
 * Checks a reCAPTCHA v3 token with the siteverify endpoint. With no keys configured there is no
 * check. A missing token (400) is refused, and so are a failed check, an answer that does not name
 * this action and our host (`action`, `hostname`), and a score under the minimum (403).
 */
export async function verifyRecaptcha(props: VerifyRecaptchaProps): Promise<void> {
  const { config, token } = props;
  if (!config) {
    return;
  }
  if (!token) {
    throw new DomainError('RECAPTCHA_REQUIRED', messages.recaptchaRequired);
  }
  const form = new URLSearchParams({ secret: config.secretKey, response: token });
  if (props.remoteIp) {
    form.set('remoteip', props.remoteIp);
  }
  let answer: z.infer<typeof siteverifyAnswerSchema>;
  try {
    const response = await fetch(config.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) {
      throw new Error(`siteverify answered ${response.status}`);
    }
    answer = siteverifyAnswerSchema.parse(await response.json());
  } catch {
    throw new DomainError('UPSTREAM_UNAVAILABLE', messages.recaptchaUnavailable);
  }
  // Both must be there and match: an answer without them could be a token solved for another form or
  // another site (a v2 key's answers carry no action; a key may serve many domains).
  const isHuman =
    answer.success &&
    answer.action === props.action &&
    answer.hostname === props.expectedHostname &&
    (answer.score ?? 0) >= config.minScore;
  if (!isHuman) {
    throw new DomainError('RECAPTCHA_FAILED', messages.recaptchaFailed);
  }
}
