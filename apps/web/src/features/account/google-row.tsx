import { googleMessages } from '@bytegate/contracts/google';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useConfig } from '../../api/use-config.ts';
import { useConnectGoogle, useDisconnectGoogle, useSecurityStatus } from '../../api/use-security.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { GoogleLogo } from '../auth/google-button.tsx';
import { readGoogleReturn } from '../auth/google-return.ts';

const CONNECT_FAILED = 'Google could not be connected. Please try again.';
const DISCONNECT_FAILED = 'Google could not be disconnected. Please try again.';

/**
 * The Security card's Google account: the one linked (its email) with Disconnect, or Connect Google,
 * which sends the browser to Google and back to User Settings (`#google=connected`, or
 * `#google-error=<reason>`), where what happened is said in a toast. Shown while sign-in with Google
 * is set up here, or while an account is linked (so it can still be disconnected).
 */
export function GoogleRow() {
  const security = useSecurityStatus();
  const { data: config } = useConfig();
  const connect = useConnectGoogle();
  const disconnect = useDisconnectGoogle();
  useGoogleReturnToast();
  const google = security.data?.google ?? null;
  if (!config?.googleSignIn && !google) {
    return null;
  }

  const onConnect = async () => {
    try {
      const { authorizationUrl } = await connect.mutateAsync();
      window.location.assign(authorizationUrl);
    } catch (error) {
      toast.error(errorMessage(error, CONNECT_FAILED));
    }
  };
  const onDisconnect = async () => {
    try {
      await disconnect.mutateAsync();
      toast.success(googleMessages.disconnected);
    } catch (error) {
      toast.error(errorMessage(error, DISCONNECT_FAILED));
    }
  };

  return (
    <div className="flex items-start justify-between gap-4" data-testid="google-row">
      <div className="flex min-w-0 gap-3">
        <GoogleLogo className="mt-0.5 size-5 shrink-0" />
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 text-sm font-medium text-gray-800">
            Google account
            {security.data ? (
              <Badge tone={google ? 'success' : 'neutral'}>{google ? 'Connected' : 'Not connected'}</Badge>
            ) : null}
          </h3>
          {security.isPending ? (
            <Skeleton className="mt-1 h-4 w-48" />
          ) : google ? (
            <p className="text-sm text-gray-500">
              Sign in with Google as{' '}
              <span className="font-medium break-all text-gray-700">{google.email}</span>.
            </p>
          ) : (
            <p className="text-sm text-gray-500">Sign in with your Google account instead of a password.</p>
          )}
        </div>
      </div>
      {security.data ? (
        google ? (
          <Button
            type="button"
            variant="secondary"
            size="sm"
            isLoading={disconnect.isPending}
            onClick={() => void onDisconnect()}
          >
            Disconnect
          </Button>
        ) : (
          <Button
            type="button"
            variant="secondary"
            size="sm"
            isLoading={connect.isPending}
            onClick={() => void onConnect()}
          >
            Connect Google
          </Button>
        )
      ) : null}
    </div>
  );
}

/** Says how a Connect Google that came back from Google ended, once, and drops the fragment. */
function useGoogleReturnToast() {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const fromGoogle = readGoogleReturn(hash);
    if (fromGoogle?.kind === 'connected') {
      toast.success(googleMessages.connected);
    } else if (fromGoogle?.kind === 'error') {
      toast.error(fromGoogle.message);
    } else {
      return;
    }
    void navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, search, navigate]);
}
