import type { ProfileResponse } from '@bytegate/contracts/account';
import { accountLinkMessages, EMAIL_CHANGE_LINK_TTL_MS } from '@bytegate/contracts/account-links';
import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import {
  createAccountToken,
  expireAccountTokens,
  getActiveUserByEmail,
  getActiveUserById,
  type UserRow,
  updateUserProfile,
} from '@bytegate/db/queries';
import { emailChangeConfirmation, emailChangeRequested } from '../../mail/templates.ts';
import { createLinkToken, linkUrl } from '../account-links/link-tokens.ts';
import { recordActivity } from '../activity/record-activity.ts';
import { runAfterReply } from '../background-tasks.ts';
import type { MailContext, RequestOrigin } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentProfile } from './get-profile.ts';
import { isPasswordHash } from './passwords.ts';
import { reauthenticate } from './reauthenticate.ts';
import type { TwoFactorCheck } from './two-factor/two-factor-check.ts';

export interface UpdateProfileProps {
  userId: string;
  firstName: string;
  lastName: string;
  /** Undefined clears it. */
  company: string | undefined;
  /** Lower-cased by the request schema; another address than the account's asks to change it. */
  email: string;
  /** Needed only to change the email. */
  currentPassword?: string | undefined;
  /** With a change of email while two-factor is on. */
  code?: string | undefined;
  twoFactor: TwoFactorCheck;
  origin?: RequestOrigin;
}

/**
 * Saves the profile. Names and company change at once. A new email takes the current password and is
 * not the account's yet: a link valid 24 hours goes to the new address (an earlier pending change
 * ends) and the current address is told that a change was asked; the address switches when the link
 * is followed (see verify-email). An address another account holds is 409 EMAIL_TAKEN. When the link
 * cannot be mailed the names stay saved and the change is dropped (503, try again).
 */
export async function updateProfile(ctx: MailContext, props: UpdateProfileProps): Promise<ProfileResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
  }
  const newEmail = props.email === user.email ? null : props.email;
  if (newEmail) {
    if (!isPasswordHash(user.passwordHash)) {
      // Created with Google and no password yet: there is none to confirm the change with.
      throw new DomainError('CONFLICT', googleMessages.setPasswordBeforeEmailChange);
    }
    if (!props.currentPassword) {
      throw new DomainError('VALIDATION_FAILED', accountLinkMessages.emailChangeNeedsPassword, {
        field: 'currentPassword',
      });
    }
    // As for the other sensitive changes: the password, and a two-factor code while it is on.
    await reauthenticate(ctx.db, {
      userId: user.id,
      password: props.currentPassword,
      code: props.code,
      twoFactor: props.twoFactor,
      wrongPasswordMessage: messages.currentPasswordWrong,
      withoutPassword: { refusal: googleMessages.setPasswordBeforeEmailChange },
    });
    if (await getActiveUserByEmail(ctx.db, { email: newEmail })) {
      throw new DomainError('EMAIL_TAKEN', messages.emailTaken);
    }
  }
  const link = newEmail ? createLinkToken() : null;
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await updateUserProfile(tx, {
      userId: user.id,
      firstName: props.firstName,
      lastName: props.lastName,
      company: props.company ?? null,
    });
    if (!row) {
      throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
    }
    const fields = profileFieldsChanged(user, row);
    if (fields.length > 0) {
      await recordActivity(tx, {
        userId: user.id,
        kind: 'profile_updated',
        details: { fields },
        origin: props.origin,
      });
    }
    if (newEmail && link) {
      const now = new Date();
      await expireAccountTokens(tx, {
        userId: user.id,
        purpose: 'email_verification',
        exceptEmail: user.email,
        now,
      });
      await createAccountToken(tx, {
        userId: user.id,
        purpose: 'email_verification',
        tokenHash: link.tokenHash,
        email: newEmail,
        expiresAt: new Date(now.getTime() + EMAIL_CHANGE_LINK_TTL_MS),
      });
    }
    return row;
  });
  if (newEmail && link) {
    try {
      await ctx.mailer.send({
        to: newEmail,
        ...emailChangeConfirmation({
          name: updated.firstName,
          newEmail,
          link: linkUrl(ctx.config.publicUrl, 'verifyEmail', link.token),
          validHours: EMAIL_CHANGE_LINK_TTL_MS / 3_600_000,
        }),
      });
    } catch {
      // The mailer logged why. A change whose link never left would only wait in the profile.
      await expireAccountTokens(ctx.db, {
        userId: user.id,
        purpose: 'email_verification',
        email: newEmail,
        now: new Date(),
      });
      throw new DomainError('UPSTREAM_UNAVAILABLE', accountLinkMessages.mailNotSent(newEmail));
    }
    await recordActivity(ctx.db, {
      userId: user.id,
      kind: 'email_change_requested',
      details: { newEmail },
      origin: props.origin,
    });
    await runAfterReply(ctx, 'email change notice', () =>
      ctx.mailer.send({ to: user.email, ...emailChangeRequested({ name: updated.firstName, newEmail }) }),
    );
  }
  return presentProfile(ctx, updated);
}

/** What a save changed of the names and company, as the activity feed names them. */
function profileFieldsChanged(
  before: Pick<UserRow, 'firstName' | 'lastName' | 'company'>,
  after: Pick<UserRow, 'firstName' | 'lastName' | 'company'>,
): Array<'name' | 'company'> {
  const fields: Array<'name' | 'company'> = [];
  if (before.firstName !== after.firstName || before.lastName !== after.lastName) {
    fields.push('name');
  }
  if ((before.company ?? null) !== (after.company ?? null)) {
    fields.push('company');
  }
  return fields;
}
