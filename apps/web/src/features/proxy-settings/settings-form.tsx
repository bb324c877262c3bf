import type { PoolType } from '@bytegate/contracts/pools';
import {
  checkProxySettings,
  DEFAULT_PROXY_SETTINGS,
  geoOptionLabel,
  MAX_LIST_ENTRY_LENGTH,
  proxySettingsMessages as messages,
  type ProxySettings,
  type ProxySettingsField,
  type ProxySettingsResponse,
} from '@bytegate/contracts/proxy-settings';
import { MAX_ROTATION_MINUTES, MIN_ROTATION_MINUTES, toPlaceName } from '@bytegate/contracts/targeting';
import { RotateCcwIcon, SaveIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useGeoOptions, useSaveProxySettings } from '../../api/use-proxy-settings.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { OptionPicker } from './option-picker.tsx';
import { useScreenToasts } from './use-screen-toasts.ts';

/**
 * The form's state: the API's settings with ASNs and the interval as typed (the rules read them as SPEC
 * section 5 says).
 */
export type SettingsDraft = Omit<ProxySettings, 'asns' | 'exclude_asn' | 'rotation_interval'> & {
  asns: string[];
  exclude_asn: string[];
  rotation_interval: string;
};

export function draftFrom(saved: ProxySettingsResponse | null): SettingsDraft {
  const settings = saved ?? DEFAULT_PROXY_SETTINGS;
  return {
    countries: settings.countries,
    states: settings.states,
    cities: settings.cities,
    zipcodes: settings.zipcodes,
    asns: settings.asns.map(String),
    exclude_countries: settings.exclude_countries,
    exclude_asn: settings.exclude_asn.map(String),
    anonymous_filter: settings.anonymous_filter,
    rotation_interval: String(settings.rotation_interval),
  };
}

const upper = (code: string) => code.toUpperCase();
const asnCode = (value: string) => value.replace(/^AS/i, '');

/** Names the option lookups are narrowed by: one the API would refuse (too long) narrows nothing. */
const lookupNames = (names: string[]) => names.filter((name) => name.length <= MAX_LIST_ENTRY_LENGTH);

/** A refusal, and the setting it is about when it names one (shown there rather than under the buttons). */
interface Problem {
  message: string;
  field?: ProxySettingsField | undefined;
}

function fieldOf(error: unknown): ProxySettingsField | undefined {
  const field = error instanceof ApiError ? error.body.field : undefined;
  return typeof field === 'string' && field in DEFAULT_PROXY_SETTINGS
    ? (field as ProxySettingsField)
    : undefined;
}

interface SettingsFormProps {
  poolType: PoolType;
  saved: ProxySettingsResponse | null;
  onReload: () => Promise<unknown>;
  isReloading: boolean;
}

/** The Basic, Location, Exclusion and Advanced cards, with Reload Settings and Save Settings. */
export function SettingsForm({ poolType, saved, onReload, isReloading }: SettingsFormProps) {
  const [draft, setDraft] = useState(() => draftFrom(saved));
  const [problem, setProblem] = useState<Problem | null>(null);
  const save = useSaveProxySettings(poolType);
  const rotationId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // A refused setting takes the focus, which also scrolls it into view from the buttons at the bottom.
  useEffect(() => {
    if (problem?.field) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [problem]);
  const errorFor = (field: ProxySettingsField) => (problem?.field === field ? problem.message : undefined);
  useEffect(() => {
    setDraft(draftFrom(saved));
    setProblem(null);
  }, [saved]);

  const set = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setProblem(null);
  };
  // Chosen countries lock the exclusions (SPEC section 2): what they held goes, not kept out of reach.
  const setCountries = (value: string[]) => {
    setDraft((current) => ({
      ...current,
      countries: value,
      exclude_countries: value.length > 0 ? [] : current.exclude_countries,
    }));
    setProblem(null);
  };
  const hasCountries = draft.countries.length > 0;
  const countries = useGeoOptions('countries', poolType, {}, true);
  const lookupStates = lookupNames(draft.states);
  const lookupCities = lookupNames(draft.cities);
  const narrowed = { countries: draft.countries, states: lookupStates, cities: lookupCities };
  const states = useGeoOptions(
    'states',
    poolType,
    { countries: draft.countries, cities: lookupCities, zipcodes: draft.zipcodes, asns: draft.asns },
    hasCountries,
  );
  const asns = useGeoOptions('asns', poolType, { ...narrowed, zipcodes: draft.zipcodes }, hasCountries);
  const zipcodes = useGeoOptions('zipcodes', poolType, { ...narrowed, asns: draft.asns }, hasCountries);

  // The lists fail together (one lookup narrowed by the same fields): one toast says so, and it goes
  // with this pool's form.
  const showError = useScreenToasts(`proxy-settings-form:${poolType}`);
  const listFailure = countries.isError
    ? messages.loadCountries
    : states.isError
      ? messages.loadStates
      : asns.isError
        ? messages.loadAsns
        : zipcodes.isError
          ? messages.loadZipcodes
          : null;
  useEffect(() => {
    if (listFailure) {
      showError('options', listFailure);
    }
  }, [listFailure, showError]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // A refusal is said once: beside the setting it is about (which takes the focus), else above
    // the buttons; never a toast as well.
    const checked = checkProxySettings(draft);
    if (!checked.ok) {
      setProblem({ message: checked.message, field: checked.field });
      return;
    }
    save.mutate(checked.settings, {
      onSuccess: () => toast.success('Success', { description: messages.saved }),
      onError: (error) => {
        setProblem({ message: errorMessage(error, messages.saveFailed), field: fieldOf(error) });
      },
    });
  };

  const needsCountry = hasCountries ? undefined : 'Choose at least one country first';
  const optionNotice = (query: { isError: boolean }, failed: string) =>
    needsCountry ?? (query.isError ? failed : undefined);

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="space-y-6" aria-label="Proxy settings">
      {/* The cards in the spec's order (SPEC section 2): Basic, Location, Exclusion, Advanced. */}
      <Card>
        <CardHeader>
          <CardTitle>Basic Settings</CardTitle>
          <CardDescription>How exits are chosen for every connection of this plan.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-2">
          <div className="flex items-start justify-between gap-4">
            <div>
              <Label htmlFor={`${rotationId}-anon`}>Anonymous filter</Label>
              <p className="text-sm text-gray-500">Skip IPs known as proxies, hosting or abuse sources.</p>
            </div>
            <Switch
              id={`${rotationId}-anon`}
              checked={draft.anonymous_filter}
              onCheckedChange={(checked) => set('anonymous_filter', checked)}
            />
          </div>
          <div className="space-y-1.5">
            <FormField
              id={rotationId}
              label="Rotation interval"
              hint="(minutes)"
              inputMode="numeric"
              value={draft.rotation_interval}
              error={errorFor('rotation_interval')}
              onChange={(event) => set('rotation_interval', event.target.value)}
              aria-describedby={`${rotationId}-help`}
            />
            <p id={`${rotationId}-help`} className="text-sm text-gray-500">
              How long a sticky session keeps its IP: {MIN_ROTATION_MINUTES} to {MAX_ROTATION_MINUTES}{' '}
              minutes.
            </p>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Location Settings</CardTitle>
          <CardDescription>
            Where your traffic leaves. States, cities, ZIP codes and ASNs narrow the chosen countries and bill
            at 2x.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-2">
          <OptionPicker
            label="Countries"
            options={countries.data}
            isLoading={countries.isPending}
            notice={countries.isError ? messages.loadCountries : undefined}
            value={draft.countries}
            error={errorFor('countries')}
            onChange={setCountries}
            normalize={upper}
            description="Only countries with IPs in this pool are listed."
            placeholder="DE, FR"
          />
          {hasCountries ? (
            <OptionPicker
              label="States"
              options={states.data}
              isLoading={states.isPending}
              notice={states.isError ? messages.loadStates : undefined}
              value={draft.states}
              error={errorFor('states')}
              onChange={(value) => set('states', value)}
              normalize={toPlaceName}
              description="States or regions of the chosen countries."
              placeholder="texas, bavaria"
            />
          ) : (
            <div className="min-w-0 space-y-2">
              <p className="text-sm font-medium text-gray-900">States</p>
              <p className="rounded-lg border border-dashed border-gray-300 px-3 py-6 text-center text-sm text-gray-500">
                Choose countries to see their states.
              </p>
            </div>
          )}
          <FormField
            label="Cities"
            hint="(comma-separated)"
            placeholder="new york, berlin"
            value={draft.cities.join(', ')}
            error={errorFor('cities')}
            onChange={(event) =>
              set(
                'cities',
                event.target.value.split(',').map((part) => part.trimStart()),
              )
            }
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Exclusion Settings</CardTitle>
          <CardDescription>Countries and networks your traffic never leaves from.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-2">
          <OptionPicker
            label="Exclude countries"
            options={countries.data}
            isLoading={countries.isPending}
            notice={countries.isError ? messages.loadCountries : undefined}
            value={draft.exclude_countries}
            error={errorFor('exclude_countries')}
            onChange={(value) => set('exclude_countries', value)}
            normalize={upper}
            disabled={hasCountries}
            disabledHint={messages.excludeHint}
            description="Every country except these."
            placeholder="RU, BY"
          />
          <FormField
            label="Exclude ASNs"
            hint="(comma-separated)"
            placeholder="16509, 14061"
            value={draft.exclude_asn.join(', ')}
            error={errorFor('exclude_asn')}
            onChange={(event) =>
              set(
                'exclude_asn',
                event.target.value.split(',').map((part) => asnCode(part.trim())),
              )
            }
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Advanced Settings</CardTitle>
          <CardDescription>
            Networks and postal codes within the chosen countries (billed at 2x).
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-2">
          <OptionPicker
            label="ASNs"
            options={asns.data}
            isLoading={hasCountries && asns.isPending}
            notice={optionNotice(asns, messages.loadAsns)}
            value={draft.asns}
            error={errorFor('asns')}
            onChange={(value) => set('asns', value)}
            normalize={asnCode}
            format={geoOptionLabel}
            description="Internet providers by AS number."
            placeholder="7922, AS3320"
          />
          <OptionPicker
            label="ZIP codes"
            options={zipcodes.data}
            isLoading={hasCountries && zipcodes.isPending}
            notice={optionNotice(zipcodes, messages.loadZipcodes)}
            value={draft.zipcodes}
            error={errorFor('zipcodes')}
            onChange={(value) => set('zipcodes', value)}
            normalize={upper}
            format={geoOptionLabel}
            description="Postal codes where IPs are located."
            placeholder="10115, 78701"
          />
        </CardContent>
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        {problem && !problem.field ? (
          <Alert tone="error" className="sm:mr-auto" role="alert">
            {problem.message}
          </Alert>
        ) : null}
        <Button
          type="button"
          variant="secondary"
          disabled={isReloading}
          onClick={() =>
            void onReload().then(
              () => toast.success('Success', { description: messages.loaded }),
              () => showError('reload', messages.loadSettings),
            )
          }
        >
          {isReloading ? <Spinner /> : <RotateCcwIcon aria-hidden="true" />}
          Reload Settings
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : <SaveIcon aria-hidden="true" />}
          Save Settings
        </Button>
      </div>
    </form>
  );
}
