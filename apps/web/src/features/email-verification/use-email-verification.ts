import { useConfig } from '../../api/use-config.ts';
import { useSession } from '../../session/session-store.ts';

/**
 * Whether the signed-in account still has to follow its verification link before it may top up or buy
 * (the server runs with EMAIL_VERIFICATION required, and the address is not proven yet), and where
 * the link went.
 */
export function useEmailVerification(): { isPending: boolean; email: string } {
  const { data: config } = useConfig();
  const user = useSession()?.user;
  return {
    isPending: config?.emailVerificationRequired === true && user?.emailVerified === false,
    email: user?.email ?? '',
  };
}
