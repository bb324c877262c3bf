import type { Plan } from '@bytegate/contracts/billing';
import { DownloadIcon } from 'lucide-react';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SegmentedControl } from '../../components/ui/segmented-control.tsx';
import {
  buildProxyList,
  type GatewayEndpoints,
  maxListQuantity,
  PROXY_LIST_FORMATS,
  type ProxyListFormat,
  type ProxyProtocol,
  proxyListFileName,
  randomSessionIds,
  type SessionType,
} from './proxy-endpoints.ts';
import { endpointsFor, type HostKind, HostKindControl } from './proxy-url-card.tsx';

/** Proxy List: N endpoints in one of six formats, to copy or download as a .txt file. */
export function ProxyListCard({
  plan,
  base,
  hosts,
  description,
}: {
  plan: Plan;
  base: Omit<GatewayEndpoints, 'host'>;
  hosts: { dns: string; ip: string | null };
  /** In place of the card's own description: whose credentials the lines carry. */
  description?: ReactNode;
}) {
  const [quantityText, setQuantityText] = useState(() =>
    String(Math.min(10, maxListQuantity(endpointsFor(base, hosts, 'dns'), 'sticky'))),
  );
  const [format, setFormat] = useState<ProxyListFormat>('host:port:user:pass');
  const [protocol, setProtocol] = useState<ProxyProtocol>('http');
  const [session, setSession] = useState<SessionType>('sticky');
  const [hostKind, setHostKind] = useState<HostKind>('dns');
  const quantityId = useId();
  const formatId = useId();
  const errorId = useId();

  const endpoints = endpointsFor(base, hosts, hostKind);
  const max = maxListQuantity(endpoints, session);
  const quantity = /^\d+$/.test(quantityText.trim()) ? Number(quantityText.trim()) : Number.NaN;
  const quantityError =
    Number.isInteger(quantity) && quantity >= 1 && quantity <= max
      ? undefined
      : `Quantity must be a whole number from 1 to ${max}`;
  // Session ids are drawn once per list shape, so the preview, the copy and the download agree.
  const sessionIds = useMemo(() => randomSessionIds(max), [max]);
  const lines = quantityError
    ? []
    : buildProxyList({
        endpoints,
        credentials: plan,
        protocol,
        session,
        format,
        quantity,
        sessionIds: (count) => sessionIds.slice(0, count),
      });
  const text = `${lines.join('\n')}\n`;

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = proxyListFileName(plan.poolType, session, protocol);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Proxy List</CardTitle>
        <CardDescription>
          {description ??
            'Sticky lists give each line its own port and IP; rotating lines each carry their own session id. Use host:port lines with the IP allowlist below.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-3">
          <SegmentedControl
            label="List protocol"
            value={protocol}
            onValueChange={setProtocol}
            options={[
              { value: 'http', label: 'HTTP' },
              { value: 'socks5', label: 'SOCKS5' },
            ]}
          />
          <SegmentedControl
            label="List type"
            value={session}
            onValueChange={setSession}
            options={[
              { value: 'sticky', label: 'Sticky' },
              { value: 'rotating', label: 'Rotating' },
            ]}
          />
          <HostKindControl hosts={hosts} value={hostKind} onValueChange={setHostKind} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <div className="space-y-1.5">
            <Label htmlFor={quantityId}>Quantity</Label>
            <Input
              id={quantityId}
              inputMode="numeric"
              value={quantityText}
              onChange={(event) => setQuantityText(event.target.value)}
              aria-invalid={quantityError ? true : undefined}
              aria-describedby={quantityError ? errorId : undefined}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={formatId}>Format</Label>
            <select
              id={formatId}
              value={format}
              onChange={(event) => setFormat(event.target.value as ProxyListFormat)}
              className="block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 font-mono text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            >
              {PROXY_LIST_FORMATS.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        {quantityError ? (
          <p id={errorId} role="alert" className="text-sm text-red-600">
            {quantityError}
          </p>
        ) : null}
        {/* Long lines wrap (broken anywhere, as a host or a password has no spaces): a line cut at the
            box's edge behind a scrollbar a phone never shows would read as the whole line. */}
        <textarea
          readOnly
          aria-label="Proxy list"
          data-testid="proxy-list"
          value={lines.join('\n')}
          rows={Math.min(Math.max(lines.length, 3), 10)}
          className="block w-full resize-y rounded-lg border border-gray-200 bg-gray-50 p-3 font-mono text-xs leading-relaxed break-all text-gray-800 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none sm:text-sm"
        />
        <div className="flex flex-wrap justify-end gap-2">
          <CopyButton text={text} what="proxy list" label="Copy All" disabled={lines.length === 0} />
          <Button
            type="button"
            variant="secondary"
            size="sm"
            onClick={download}
            disabled={lines.length === 0}
          >
            <DownloadIcon aria-hidden="true" />
            Download .txt
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
