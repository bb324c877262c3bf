import type { CatalogResponse } from '@bytegate/contracts/admin-catalog';
import type { AdminSource } from '@bytegate/contracts/admin-supply';
import { MapPinnedIcon } from 'lucide-react';
import { useSourceCatalog } from '../../../api/use-admin-supply.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatAgo, formatInteger } from '../format.ts';
import { EmptyState, ErrorState, LoadingRows } from '../states.tsx';
import { ImportCatalogForm } from './import-catalog-form.tsx';
import { Figure } from './source-labels.tsx';

type CatalogCountry = CatalogResponse['countries'][number];

/**
 * A wholesale network's catalog of places: the countries it serves with their cities, what the vendor's
 * list holds and what only traffic found. Staff of either role read it; an admin imports the vendor's
 * list here too.
 */
export function SourceCatalogDialog({ source, canChange }: { source: AdminSource; canChange: boolean }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Catalog of ${source.name}`}>
          <MapPinnedIcon aria-hidden="true" />
          Catalog
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Catalog of ${source.name}`}
        description="The places this network serves, from the vendor’s list and from the exits our traffic got. The dashboard offers them, and the gateway sends a connection here only for a place the catalog lists (or when it is empty)."
        className="flex max-h-[calc(100dvh-2rem)] max-w-4xl flex-col"
      >
        <div className="-mx-6 min-h-0 space-y-4 overflow-y-auto px-6">
          {canChange ? <ImportCatalogForm source={source} /> : null}
          <SourceCatalog source={source} />
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** The cities traffic saw most, and how many more there are. */
function TopCities({ country }: { country: CatalogCountry }) {
  if (country.topCities.length === 0) {
    return <span className="text-gray-500">None listed</span>;
  }
  const more = country.cities - country.topCities.length;
  return (
    <span>
      {country.topCities.map((city) => city.name).join(', ')}
      {more > 0 ? <span className="text-gray-500">, and {formatInteger(more)} more</span> : null}
    </span>
  );
}

function Origins({ country }: { country: CatalogCountry }) {
  return (
    <span className="inline-flex flex-col tabular-nums">
      <span>{formatInteger(country.imported)} imported</span>
      <span className="text-xs text-gray-600">{formatInteger(country.learned)} learned</span>
    </span>
  );
}

function Seen({ country }: { country: CatalogCountry }) {
  return (
    <span className="inline-flex flex-col tabular-nums">
      <span>{formatInteger(country.exitsSeen)}</span>
      {country.lastSeenAt ? (
        <time dateTime={country.lastSeenAt} className="text-xs text-gray-600">
          {formatAgo(country.lastSeenAt)}
        </time>
      ) : null}
    </span>
  );
}

/** Mounted only while the dialog is open, so the catalog is read only then. */
function SourceCatalog({ source }: { source: AdminSource }) {
  const answer = useSourceCatalog(source.id);
  if (answer.isPending) {
    return <LoadingRows what="the catalog" rows={5} />;
  }
  if (answer.isError) {
    return (
      <ErrorState
        error={answer.error}
        fallback="The catalog could not be loaded. Please try again."
        onRetry={() => void answer.refetch()}
        isRetrying={answer.isFetching}
      />
    );
  }
  const { totals, countries } = answer.data;
  if (countries.length === 0) {
    return (
      <EmptyState icon={MapPinnedIcon} title="No places yet">
        {source.kind === 'network'
          ? 'The gateway tries this network for every place until the vendor’s list is imported or traffic teaches it where its exits are.'
          : 'Our own exits have no catalog: their places are the exits’ own.'}
      </EmptyState>
    );
  }
  const label = `Countries of ${source.name}`;
  return (
    <section aria-label={label} className="space-y-3">
      <p className="text-sm text-gray-700" role="status">
        {formatInteger(totals.entries)} places in {formatInteger(totals.countries)} countries and{' '}
        {formatInteger(totals.cities)} cities: {formatInteger(totals.imported)} from the vendor’s list,{' '}
        {formatInteger(totals.learned)} learned from traffic ({formatInteger(totals.exitsSeen)} exits seen).
      </p>
      <div className="hidden md:block">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              <TableHead>Country</TableHead>
              <TableHead className="text-right">Cities</TableHead>
              <TableHead className="text-right">States</TableHead>
              <TableHead className="text-right">ASNs</TableHead>
              <TableHead>Places</TableHead>
              <TableHead className="text-right">Exits seen</TableHead>
              <TableHead>Top cities</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {countries.map((country) => (
              <TableRow key={country.code}>
                <TableCell>
                  <span className="font-medium text-gray-900">{country.name}</span>{' '}
                  <span className="text-xs text-gray-500">{country.code}</span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatInteger(country.cities)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatInteger(country.states)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatInteger(country.asns)}</TableCell>
                <TableCell>
                  <Origins country={country} />
                </TableCell>
                <TableCell className="text-right">
                  <Seen country={country} />
                </TableCell>
                <TableCell className="max-w-64 whitespace-normal">
                  <TopCities country={country} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="divide-y divide-gray-100 md:hidden" aria-label={label}>
        {countries.map((country) => (
          <li key={country.code} className="space-y-2 py-3">
            <p className="text-sm font-medium text-gray-900">
              {country.name} <span className="text-xs font-normal text-gray-500">{country.code}</span>
            </p>
            <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
              <Figure label="Cities">{formatInteger(country.cities)}</Figure>
              <Figure label="Places">
                <Origins country={country} />
              </Figure>
              <Figure label="Exits seen">
                <Seen country={country} />
              </Figure>
            </dl>
            <p className="text-sm text-gray-700">
              <span className="text-gray-600">Top cities: </span>
              <TopCities country={country} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
