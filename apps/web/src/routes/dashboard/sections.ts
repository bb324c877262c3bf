import {
  ChartColumnIcon,
  CreditCardIcon,
  LayoutDashboardIcon,
  type LucideIcon,
  NetworkIcon,
  ReceiptTextIcon,
  SettingsIcon,
  SlidersHorizontalIcon,
  WalletIcon,
} from 'lucide-react';

/** The dashboard's sections, switched by in-page state (SPEC section 2, and our Statistics), in sidebar order. */
export const SECTIONS = [
  { id: 'dashboard', label: 'Dashboard', title: 'Dashboard', icon: LayoutDashboardIcon },
  { id: 'statistics', label: 'Statistics', title: 'Statistics', icon: ChartColumnIcon },
  { id: 'plans', label: 'Plans & Pricing', title: 'Plans & Pricing', icon: CreditCardIcon },
  { id: 'orders', label: 'Orders', title: 'Orders', icon: ReceiptTextIcon },
  { id: 'topup', label: 'Top-up', title: 'Top Up Balance', icon: WalletIcon },
  { id: 'proxy-setup', label: 'Proxy Setup', title: 'Proxy Setup', icon: NetworkIcon },
  { id: 'proxy-settings', label: 'Proxy Settings', title: 'Proxy Settings', icon: SlidersHorizontalIcon },
  { id: 'user-settings', label: 'User Settings', title: 'Account Settings', icon: SettingsIcon },
] as const satisfies ReadonlyArray<{ id: string; label: string; title: string; icon: LucideIcon }>;

export type SectionId = (typeof SECTIONS)[number]['id'];

export function findSection(id: string) {
  return SECTIONS.find((section) => section.id === id);
}
