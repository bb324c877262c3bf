import { getActiveUserById, linkGoogleAccount } from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { GoogleFlowError } from './google-flow-error.ts';
import type { GoogleIdentity } from './google-openid.ts';

/**
 * Links the Google account that just signed in (User Settings' "Connect Google", started by the
 * signed-in account itself) to that account: refused when that Google account is linked to another
 * account, or this account has another Google account linked. Linking the same one again only
 * refreshes its email. From then on "Sign in with Google" opens this account.
 */
export async function linkGoogle(
  ctx: ServiceContext,
  props: { userId: string | null; identity: GoogleIdentity; origin?: RequestOrigin },
): Promise<void> {
  const user = props.userId ? await getActiveUserById(ctx.db, { userId: props.userId }) : null;
  if (!user) {
    throw new GoogleFlowError('failed', { purpose: 'link' });
  }
  if (user.disabledAt) {
    throw new GoogleFlowError('disabled', { purpose: 'link' });
  }
  if (user.googleSubject && user.googleSubject !== props.identity.subject) {
    throw new GoogleFlowError('other_google_linked', { purpose: 'link' });
  }
  const googleEmail = props.identity.email.toLowerCase();
  await ctx.db.transaction(async (tx) => {
    const linked = await linkGoogleAccount(tx, {
      userId: user.id,
      googleSubject: props.identity.subject,
      googleEmail,
    });
    if (!linked) {
      throw new GoogleFlowError('linked_elsewhere', { purpose: 'link' });
    }
    // Linking the one already linked only refreshes its email: nothing new to tell.
    if (!user.googleSubject) {
      await recordActivity(tx, {
        userId: user.id,
        kind: 'google_linked',
        details: { googleEmail },
        origin: props.origin,
      });
    }
  });
}
