import { signupRequestSchema } from '@bytegate/contracts/auth';
import { NAME_MAX_LENGTH } from '@bytegate/contracts/constants';
import { hasControlCharacters } from '@bytegate/contracts/text';
import {
  createGoogleUser,
  getActiveUserByEmail,
  getActiveUserByGoogleSubject,
  linkGoogleAccount,
  type UserRow,
} from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { beginSignIn, type SignInOutcome } from '../begin-sign-in.ts';
import { GoogleFlowError } from './google-flow-error.ts';
import type { GoogleIdentity } from './google-openid.ts';

export interface SignInWithGoogleProps {
  /** Who Google says signed in, email verified (finishGoogleFlow). */
  identity: GoogleIdentity;
  origin: RequestOrigin;
  /** The browser's device cookie, if it sent one. */
  deviceToken?: string | undefined;
}

/**
 * Signs a browser in with Google. The account is found by the Google account's `sub`, never by email.
 * None linked and no account with the email: a new account is created from the claims (names, the
 * email verified by Google, no password), as sign-up would. An account with that email that is not
 * linked is never linked here (whoever controls a Google account with someone's address would get
 * into their account): the person is told to sign in with their password and connect Google in User
 * Settings. Then `beginSignIn` decides as for a password: a disabled account is refused, two-factor
 * asks for a code, any other gets its session (cookie and device cookie, a browser sign-in).
 */
export async function signInWithGoogle(
  ctx: ServiceContext,
  props: SignInWithGoogleProps,
): Promise<SignInOutcome> {
  const { identity } = props;
  const user =
    (await getActiveUserByGoogleSubject(ctx.db, { googleSubject: identity.subject })) ??
    (await createAccount(ctx, identity, props.origin));
  const googleEmail = identity.email.toLowerCase();
  if (user.googleEmail !== googleEmail) {
    // The Google account's address changed since it was linked: User Settings shows the new one.
    await linkGoogleAccount(ctx.db, { userId: user.id, googleSubject: identity.subject, googleEmail });
  }
  try {
    return await beginSignIn(ctx, {
      user,
      method: 'google',
      isBrowser: true,
      origin: props.origin,
      deviceToken: props.deviceToken,
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'ACCOUNT_DISABLED') {
      throw new GoogleFlowError('disabled', { cause: error });
    }
    throw error;
  }
}

/** A new account for a Google account no account is linked to, unless its email already has one. */
async function createAccount(
  ctx: ServiceContext,
  identity: GoogleIdentity,
  origin: RequestOrigin,
): Promise<UserRow> {
  // The sign-up form's rules: a valid address within its length, stored lower-cased.
  const email = signupRequestSchema.shape.email.safeParse(identity.email);
  if (!email.success) {
    throw new GoogleFlowError('failed', { cause: new Error('Google sent an email address we cannot keep') });
  }
  if (await getActiveUserByEmail(ctx.db, { email: email.data })) {
    throw new GoogleFlowError('account_exists');
  }
  const created = await createGoogleUser(ctx.db, {
    email: email.data,
    ...namesOf(identity, email.data),
    googleSubject: identity.subject,
    googleEmail: email.data,
    now: new Date(),
  });
  if (created) {
    await recordActivity(ctx.db, {
      userId: created.id,
      kind: 'account_created',
      details: { method: 'google' },
      origin,
    });
    return created;
  }
  // Lost a race: the same Google account signing in twice at once (then it is linked now), or a
  // sign-up with the same email (then it is not, and is refused as above).
  const linked = await getActiveUserByGoogleSubject(ctx.db, { googleSubject: identity.subject });
  if (!linked) {
    throw new GoogleFlowError('account_exists');
  }
  return linked;
}

/**
 * First and last name from the claims: `given_name` and `family_name`, else `name` split at its first
 * space, else the email's local part (a Google account may have no family name: it stays empty, to be
 * filled in in User Settings). Control characters are dropped and each is cut to the names' limit.
 */
function namesOf(identity: GoogleIdentity, email: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = (identity.name ?? '').split(/\s+/);
  const firstName = clean(identity.givenName ?? first) || clean(email.split('@')[0] ?? '') || 'Google';
  const lastName = clean(identity.familyName ?? (identity.givenName ? '' : rest.join(' ')));
  return { firstName, lastName };
}

function clean(name: string): string {
  const kept = [...name].filter((character) => !hasControlCharacters(character)).join('');
  return kept.trim().slice(0, NAME_MAX_LENGTH).trim();
}
