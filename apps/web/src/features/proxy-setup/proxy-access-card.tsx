import type { Plan } from '@bytegate/contracts/billing';
import { EyeIcon, EyeOffIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FieldRow } from './field-row.tsx';
import type { GatewayEndpoints } from './proxy-endpoints.ts';
import { maskedPassword } from './proxy-url-card.tsx';
import { RegeneratePasswordDialog } from './regenerate-password-dialog.tsx';

/** Proxy Access: the plan's login and password and where the gateway listens. */
export function ProxyAccessCard({ plan, endpoints }: { plan: Plan; endpoints: GatewayEndpoints }) {
  const [isRevealed, setIsRevealed] = useState(false);
  const { first, last } = endpoints.stickyPorts;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Proxy Access</CardTitle>
        <CardDescription>Use these with any HTTP or SOCKS5 client.</CardDescription>
      </CardHeader>
      <CardContent className="py-1">
        <dl className="divide-y divide-gray-100">
          <FieldRow label="Login" value={plan.login} />
          <FieldRow
            label="Password"
            value={plan.password}
            display={
              isRevealed ? (
                plan.password
              ) : (
                <>
                  <span aria-hidden="true">{maskedPassword(plan.password)}</span>
                  <span className="sr-only">Password hidden</span>
                </>
              )
            }
            extra={
              <>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-pressed={isRevealed}
                  aria-label={isRevealed ? 'Hide password' : 'Show password'}
                  onClick={() => setIsRevealed((value) => !value)}
                >
                  {isRevealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
                </Button>
                <RegeneratePasswordDialog plan={plan} />
              </>
            }
          />
          <FieldRow label="Host" value={endpoints.host} />
          <FieldRow label="HTTP port" value={String(endpoints.httpPort)} />
          <FieldRow label="SOCKS5 port" value={String(endpoints.socksPort)} />
          <FieldRow
            label="Sticky ports"
            value={`${first}-${last}`}
            display={
              <span>
                {first}–{last}
                <span className="block font-sans text-xs whitespace-normal text-gray-500">
                  one IP per port, HTTP or SOCKS5
                </span>
              </span>
            }
          />
        </dl>
      </CardContent>
    </Card>
  );
}
