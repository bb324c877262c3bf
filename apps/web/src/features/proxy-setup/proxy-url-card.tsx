import type { Plan } from '@bytegate/contracts/billing';
import { EyeIcon, EyeOffIcon } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import {
  buildCurlCommand,
  type GatewayEndpoints,
  type ProxyProtocol,
  type SessionType,
} from './proxy-endpoints.ts';

export const DEFAULT_TARGET_URL = 'https://ipinfo.io/json';

/** A password as Proxy Access masks it: one dot a character, at most 16. */
export function maskedPassword(password: string): string {
  return '•'.repeat(Math.min(password.length, 16));
}

export type HostKind = 'dns' | 'ip';

interface GatewayHosts {
  dns: string;
  ip: string | null;
}

/** Picks the host the customer wants in commands and lists; the IP choice exists when one is configured. */
export function endpointsFor(
  base: Omit<GatewayEndpoints, 'host'>,
  hosts: GatewayHosts,
  kind: HostKind,
): GatewayEndpoints {
  return { ...base, host: kind === 'ip' && hosts.ip ? hosts.ip : hosts.dns };
}

export function HostKindControl({
  hosts,
  value,
  onValueChange,
}: {
  hosts: GatewayHosts;
  value: HostKind;
  onValueChange: (value: HostKind) => void;
}) {
  return (
    <SegmentedControl
      label="Host"
      value={value}
      onValueChange={onValueChange}
      options={[
        { value: 'dns', label: 'DNS' },
        {
          value: 'ip',
          label: 'IP',
          disabled: !hosts.ip,
          title: hosts.ip ? hosts.ip : 'This gateway has no fixed IP address: use its DNS name',
        },
      ]}
    />
  );
}

/** Proxy URL: a cURL command built from the choices, ready to paste into a terminal. */
export function ProxyUrlCard({
  plan,
  base,
  hosts,
  description,
}: {
  plan: Plan;
  base: Omit<GatewayEndpoints, 'host'>;
  hosts: GatewayHosts;
  /** In place of the card's own description: whose credentials the command carries. */
  description?: ReactNode;
}) {
  const [protocol, setProtocol] = useState<ProxyProtocol>('http');
  const [session, setSession] = useState<SessionType>('rotating');
  const [hostKind, setHostKind] = useState<HostKind>('dns');
  const [targetUrl, setTargetUrl] = useState(DEFAULT_TARGET_URL);
  const [isRevealed, setIsRevealed] = useState(false);
  const targetId = useId();
  const commandFor = (password: string) =>
    buildCurlCommand({
      endpoints: endpointsFor(base, hosts, hostKind),
      credentials: { login: plan.login, password },
      protocol,
      session,
      targetUrl: targetUrl.trim() || DEFAULT_TARGET_URL,
    });
  // Shown with the password masked, as Proxy Access shows it (revealed on demand); copied whole.
  const command = commandFor(plan.password);
  const shown = isRevealed ? command : commandFor(maskedPassword(plan.password));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Proxy URL</CardTitle>
        <CardDescription>
          {description ??
            'Rotating gives a new IP on every connection; sticky keeps one IP per sticky port for the rotation interval.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-3">
          <SegmentedControl
            label="Protocol"
            value={protocol}
            onValueChange={setProtocol}
            options={[
              { value: 'http', label: 'HTTP' },
              { value: 'socks5', label: 'SOCKS5' },
            ]}
          />
          <SegmentedControl
            label="Type"
            value={session}
            onValueChange={setSession}
            options={[
              { value: 'rotating', label: 'Rotating' },
              { value: 'sticky', label: 'Sticky' },
            ]}
          />
          <HostKindControl hosts={hosts} value={hostKind} onValueChange={setHostKind} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={targetId}>Test URL</Label>
          <Input
            id={targetId}
            type="url"
            inputMode="url"
            spellCheck={false}
            value={targetUrl}
            onChange={(event) => setTargetUrl(event.target.value)}
          />
        </div>
        <div className="relative rounded-lg bg-gray-950 p-4 pr-24">
          <code
            data-testid="curl-command"
            className="block font-mono text-xs leading-relaxed break-all text-gray-100 sm:text-sm"
          >
            {shown}
          </code>
          <div className="absolute top-2.5 right-2.5 flex gap-1">
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-pressed={isRevealed}
              aria-label={isRevealed ? 'Hide password' : 'Show password'}
              className="text-gray-300 hover:bg-gray-800 hover:text-white"
              onClick={() => setIsRevealed((value) => !value)}
            >
              {isRevealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
            </Button>
            <CopyButton
              text={command}
              what="cURL command"
              variant="ghost"
              className="text-gray-300 hover:bg-gray-800 hover:text-white"
            />
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
