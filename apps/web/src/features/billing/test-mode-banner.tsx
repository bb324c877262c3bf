import { topupMessages } from '@bytegate/contracts/topup';
import { FlaskConicalIcon } from 'lucide-react';
import { useConfig } from '../../api/use-config.ts';

/**
 * Shown across the dashboard while the server runs a payment sandbox: top-ups there move no money, and
 * nobody should mistake it for the real thing (nor an operator miss that it is on).
 */
export function TestModeBanner() {
  const { data: config } = useConfig();
  if (!config?.paymentsSandbox) {
    return null;
  }
  return (
    <div
      role="status"
      data-testid="test-mode-banner"
      className="flex items-center justify-center gap-2 border-b border-amber-200 bg-amber-100 px-4 py-1.5 text-sm font-medium text-amber-900"
    >
      <FlaskConicalIcon className="size-4 shrink-0" aria-hidden="true" />
      {topupMessages.testMode}
    </div>
  );
}
