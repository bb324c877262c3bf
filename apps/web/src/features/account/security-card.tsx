import { ShieldCheckIcon, ShieldIcon } from 'lucide-react';
import { useId, useRef } from 'react';
import { useSecurityStatus } from '../../api/use-security.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatDate } from '../admin/format.ts';
import { GoogleRow } from './google-row.tsx';
import { DisableTwoFactorDialog } from './two-factor/disable-two-factor-dialog.tsx';
import { EnableTwoFactorDialog } from './two-factor/enable-two-factor-dialog.tsx';
import { RegenerateRecoveryCodesDialog } from './two-factor/regenerate-recovery-codes-dialog.tsx';

/** Two-factor authentication, and the Google account linked for sign-in. */
export function SecurityCard() {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Security</CardTitle>
        <CardDescription>Protect your account.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <TwoFactorRow />
        <GoogleRow />
      </CardContent>
    </Card>
  );
}

/** Two-factor's status (on since when, recovery codes left) and what can be done with it. */
function TwoFactorRow() {
  const security = useSecurityStatus();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const twoFactor = security.data?.twoFactor;
  const Icon = twoFactor?.enabled ? ShieldCheckIcon : ShieldIcon;
  return (
    <div className="space-y-3" data-testid="two-factor-row">
      <div className="flex items-start justify-between gap-4">
        <div className="flex min-w-0 gap-3">
          <Icon
            className={
              twoFactor?.enabled
                ? 'mt-0.5 size-5 shrink-0 text-emerald-600'
                : 'mt-0.5 size-5 shrink-0 text-gray-400'
            }
            aria-hidden="true"
          />
          <div className="min-w-0">
            <h3
              ref={titleRef}
              tabIndex={-1}
              className="flex flex-wrap items-center gap-2 text-sm font-medium text-gray-800 focus:outline-none"
            >
              Two-factor authentication
              {twoFactor ? (
                <Badge tone={twoFactor.enabled ? 'success' : 'neutral'}>
                  {twoFactor.enabled ? 'On' : 'Off'}
                </Badge>
              ) : null}
            </h3>
            {security.isPending ? (
              <Skeleton className="mt-1 h-4 w-48" />
            ) : security.isError ? (
              <p className="text-sm text-red-600">Failed to load two-factor status.</p>
            ) : twoFactor?.enabled ? (
              <p className="text-sm text-gray-500">
                On since{' '}
                {twoFactor.enabledAt ? (
                  <time dateTime={twoFactor.enabledAt}>{formatDate(twoFactor.enabledAt)}</time>
                ) : (
                  '—'
                )}
                . {twoFactor.recoveryCodesLeft} recovery code{twoFactor.recoveryCodesLeft === 1 ? '' : 's'}{' '}
                left.
              </p>
            ) : (
              <p className="text-sm text-gray-500">Ask for a code from your phone at sign-in.</p>
            )}
          </div>
        </div>
        {twoFactor ? (
          <EnableTwoFactorDialog hasTrigger={!twoFactor.enabled} returnFocusTo={titleRef} />
        ) : null}
      </div>
      {twoFactor?.enabled ? (
        <>
          {twoFactor.recoveryCodesLeft <= 2 ? (
            <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {twoFactor.recoveryCodesLeft === 0
                ? 'You have no recovery codes left. Make new ones so that a lost phone does not lock you out.'
                : 'You are running out of recovery codes. Make new ones soon.'}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2 pl-8">
            <RegenerateRecoveryCodesDialog />
            <DisableTwoFactorDialog />
          </div>
        </>
      ) : null}
    </div>
  );
}
