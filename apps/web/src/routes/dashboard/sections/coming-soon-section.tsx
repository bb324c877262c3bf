import { ConstructionIcon } from 'lucide-react';
import { Card, CardContent } from '../../../components/ui/card.tsx';

/** Any section id the dashboard does not know. */
export function ComingSoonSection({ id }: { id: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-16 text-center">
        <ConstructionIcon className="size-10 text-gray-400" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-gray-900">Coming soon</h2>
        <p className="max-w-sm text-sm text-gray-600">
          The “{id}” section is coming soon. We are working on it.
        </p>
      </CardContent>
    </Card>
  );
}
