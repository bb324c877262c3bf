import type {
  DisableTwoFactorRequest,
  RecoveryCodesResponse,
  SecurityStatusResponse,
  StartTwoFactorSetupRequest,
  TwoFactorCodeRequest,
  TwoFactorSetupResponse,
  TwoFactorStatus,
} from '@bytegate/contracts/two-factor';
import { defineApiSection } from './api-client.ts';

// User Settings → Security (issue 18): the account's protection and two-factor authentication. A
// section of its own, so that only the dashboard, which shows it, loads it.

export const twoFactorApi = defineApiSection((request) => ({
  /** How the account is protected: two-factor's status. */
  getSecurity: () => request<SecurityStatusResponse>('GET', '/user-settings/security'),
  /** A new secret waiting for its first code (password required). */
  startSetup: (body: StartTwoFactorSetupRequest) =>
    request<TwoFactorSetupResponse>('POST', '/user-settings/two-factor/setup', { body }),
  /** Turns two-factor on with a code from the app; answers the recovery codes, this once. */
  confirm: (body: TwoFactorCodeRequest) =>
    request<RecoveryCodesResponse>('POST', '/user-settings/two-factor/confirm', { body }),
  regenerateRecoveryCodes: (body: TwoFactorCodeRequest) =>
    request<RecoveryCodesResponse>('POST', '/user-settings/two-factor/recovery-codes', { body }),
  disable: (body: DisableTwoFactorRequest) =>
    request<TwoFactorStatus>('POST', '/user-settings/two-factor/disable', { body }),
}));
