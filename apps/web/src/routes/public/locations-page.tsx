import { CheckIcon } from 'lucide-react';
import { Link } from 'react-router';

// The figures and points of SPEC section 2 (Locations) and section 9.
const STATS = [
  { label: 'Real-time active IP pool', value: '843,453+' },
  { label: 'Unique IPs in the last 30 days', value: '19,316,171+' },
  { label: 'Unique IPs in the last 24 hours', value: '2,560,705+' },
];

interface Pool {
  id: string;
  name: string;
  intro: string;
  countries: string[];
  why: string[];
}

const POOLS: Pool[] = [
  {
    id: 'residential',
    name: 'Residential',
    intro: 'Real household connections from local internet providers.',
    countries: ['US', 'GB', 'DE', 'FR', 'CA', 'BR', 'IN', 'JP', 'IT', 'ES', 'AU', 'MX'],
    why: [
      'Targeting by country, state, city, ZIP code and ASN',
      'Pay as you go: traffic never expires',
      'Rotating and sticky modes',
    ],
  },
  {
    id: 'mobile',
    name: 'Mobile',
    intro: "IPs of mobile carriers' networks, the hardest for sites to block.",
    countries: ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'PL', 'NL', 'BR', 'MX', 'ID', 'TH'],
    why: ['5G, 4G, 3G and LTE networks', 'Carrier targeting by ASN', 'Rotating and sticky modes'],
  },
  {
    id: 'datacenter',
    name: 'Datacenter',
    intro: 'Fast, affordable IPs hosted in data centers.',
    countries: ['US', 'DE', 'NL', 'GB', 'FR', 'CA', 'SG', 'JP', 'AU', 'SE', 'PL', 'FI'],
    why: [
      'Multiple regions across the Americas, Europe and Asia-Pacific',
      'Our lowest price per GB',
      'High throughput and low latency',
    ],
  },
  {
    id: 'premium-residential',
    name: 'Premium Residential',
    intro: 'Hand-picked residential IPs for the most demanding work.',
    countries: ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'JP', 'NL', 'IT', 'ES', 'SE', 'CH'],
    why: ['All targeting included', 'Latency under 50 ms', '99.9% uptime'],
  },
];

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Proxies by Location: the pool's size, and where each kind of IP is. */
export function LocationsPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">Proxies by Location</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-600">
        IPs in 195 countries. Choose one, a state, a city or a network in your dashboard, or per request.
      </p>
      <dl className="mt-10 grid gap-4 sm:grid-cols-3">
        {STATS.map((stat) => (
          <div key={stat.label} className="rounded-2xl border border-gray-200 p-6 shadow-sm">
            <dt className="text-sm text-gray-600">{stat.label}</dt>
            <dd className="mt-2 text-3xl font-semibold tracking-tight text-gray-900">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-16 space-y-16">
        {POOLS.map((pool) => (
          <section key={pool.id} aria-labelledby={`${pool.id}-title`} className="grid gap-8 lg:grid-cols-3">
            <div className="lg:col-span-2">
              <h2 id={`${pool.id}-title`} className="text-2xl font-semibold text-gray-900">
                {pool.name}
              </h2>
              <p className="mt-2 text-gray-600">{pool.intro}</p>
              <ul
                aria-label={`${pool.name} countries`}
                className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3"
              >
                {pool.countries.map((code) => (
                  <li
                    key={code}
                    className="flex items-center gap-3 rounded-lg border border-gray-200 px-3 py-2 text-sm text-gray-800"
                  >
                    <span className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-600">
                      {code}
                    </span>
                    <span className="min-w-0 leading-snug">{regionNames.of(code) ?? code}</span>
                  </li>
                ))}
              </ul>
            </div>
            <aside className="self-start rounded-2xl bg-brand-50 p-6" aria-label={`Why ${pool.name}`}>
              <h3 className="font-semibold text-brand-900">Why {pool.name}?</h3>
              <ul className="mt-4 space-y-3 text-sm text-brand-900">
                {pool.why.map((point) => (
                  <li key={point} className="flex gap-2">
                    <CheckIcon className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
                    {point}
                  </li>
                ))}
              </ul>
            </aside>
          </section>
        ))}
      </div>
      <p className="mt-16 text-gray-600">
        Need a country that is not listed, or a large volume?{' '}
        <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
          Contact us
        </Link>{' '}
        and we will tell you what is available.
      </p>
    </div>
  );
}
