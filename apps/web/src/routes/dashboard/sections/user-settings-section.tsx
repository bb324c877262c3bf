import { ApiKeysCard } from '../../../features/account/api-keys-card.tsx';
import { DangerZoneCard } from '../../../features/account/danger-zone-card.tsx';
import { NotificationsCard } from '../../../features/account/notifications-card.tsx';
import { ProfileCard } from '../../../features/account/profile-card.tsx';
import { SecurityCard } from '../../../features/account/security-card.tsx';
import { PasswordCard } from '../../../features/account/set-password-card.tsx';
import { WebhookCard } from '../../../features/account/webhook-card.tsx';

/**
 * User Settings (Account Settings): profile, security, password (change it, or set one for an account
 * created with Google), notifications (the spec's preferences, made real) and the webhook, API keys,
 * danger zone.
 */
export function UserSettingsSection() {
  return (
    <div className="space-y-6">
      <ProfileCard />
      <SecurityCard />
      <PasswordCard />
      <NotificationsCard />
      <WebhookCard />
      <ApiKeysCard />
      <DangerZoneCard />
    </div>
  );
}
