import { ApiKeysCard } from '../../../features/account/api-keys-card.tsx';
import { ChangePasswordCard } from '../../../features/account/change-password-card.tsx';
import { DangerZoneCard } from '../../../features/account/danger-zone-card.tsx';
import { PreferencesCard } from '../../../features/account/preferences-card.tsx';
import { ProfileCard } from '../../../features/account/profile-card.tsx';
import { SecurityCard } from '../../../features/account/security-card.tsx';

/** User Settings (Account Settings): profile, security, password, preferences, API keys, danger zone. */
export function UserSettingsSection() {
  return (
    <div className="space-y-6">
      <ProfileCard />
      <div className="grid gap-6 lg:grid-cols-2">
        <SecurityCard />
        <PreferencesCard />
      </div>
      <ChangePasswordCard />
      <ApiKeysCard />
      <DangerZoneCard />
    </div>
  );
}
