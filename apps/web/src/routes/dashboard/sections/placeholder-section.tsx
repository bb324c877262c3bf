import { ClockIcon } from 'lucide-react';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { findSection } from '../sections.ts';

const descriptions: Record<string, string> = {
  'proxy-setup': 'Your proxy credentials, endpoints, cURL command and proxy lists.',
  'proxy-settings': 'Countries, states, cities, ZIP codes, ASNs and the sticky IP window.',
};

/** A section of the dashboard whose screen arrives with its own issue. */
export function PlaceholderSection({ id }: { id: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-16 text-center">
        <ClockIcon className="size-10 text-brand-500" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-gray-900">{findSection(id)?.title} is almost here</h2>
        <p className="max-w-md text-sm text-gray-600">{descriptions[id]}</p>
      </CardContent>
    </Card>
  );
}
