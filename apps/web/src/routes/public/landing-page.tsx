import { PRICE_PER_GB_CENTS, SCROLL_TO_TOP_THRESHOLD_PX } from '@bytegate/contracts/constants';
import { formatUsd } from '@bytegate/contracts/money';
import { POOL_NAMES, POOL_TYPES, type PoolType } from '@bytegate/contracts/pools';
import {
  ArrowUpIcon,
  CheckIcon,
  GlobeIcon,
  HeadphonesIcon,
  InfinityIcon,
  ShieldCheckIcon,
  ZapIcon,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { scrollBehavior } from '../../lib/motion.ts';

const poolBlurbs: Record<PoolType, string> = {
  datacenter: 'Fast, stable IPs in multiple regions for high-volume work.',
  residential: 'Real household IPs with country, state, city, ZIP and ASN targeting.',
  mobile: '5G, 4G, 3G and LTE carrier IPs for the toughest targets.',
};

const features = [
  {
    icon: GlobeIcon,
    title: '195 countries',
    text: 'Over 20 million IPs, targeted by country, state, city, ZIP or ASN.',
  },
  {
    icon: InfinityIcon,
    title: 'Traffic never expires',
    text: 'Pay per GB. What you buy stays on your plan until you use it.',
  },
  {
    icon: ZapIcon,
    title: 'Rotating or sticky',
    text: 'A new IP per request, or keep one for up to 120 minutes.',
  },
  { icon: ShieldCheckIcon, title: '99.9% uptime', text: 'HTTP, HTTPS and SOCKS5 gateways built for scale.' },
];

const highlights = [
  { value: '20M+', label: 'IPs worldwide' },
  { value: '195', label: 'countries' },
  { value: '99.9%', label: 'uptime' },
  { value: '24/7', label: 'support' },
];

export function LandingPage() {
  return (
    <>
      <section id="home" className="scroll-mt-16 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6 sm:py-28">
          <Badge tone="brand">20M+ IPs in 195 countries</Badge>
          <h1 className="mx-auto mt-6 max-w-3xl text-4xl font-semibold tracking-tight text-gray-900 sm:text-5xl">
            Proxies billed by the gigabyte. Traffic that never expires.
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-gray-600">
            Datacenter, residential and mobile proxies with precise targeting, rotating and sticky sessions,
            and 99.9% uptime.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/signup">Get Started</Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/#pricing">See pricing</Link>
            </Button>
          </div>
          <dl className="mx-auto mt-14 grid max-w-3xl grid-cols-2 gap-6 sm:grid-cols-4">
            {highlights.map((highlight) => (
              <div key={highlight.label} className="flex flex-col-reverse justify-end gap-1">
                <dt className="text-sm text-gray-600">{highlight.label}</dt>
                <dd className="text-2xl font-semibold tracking-tight text-gray-900">{highlight.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section id="features" className="scroll-mt-16 mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <h2 className="text-3xl font-semibold tracking-tight">
          Everything you need to collect data at scale
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <div key={feature.title} className="rounded-xl border border-gray-200 p-6">
              <feature.icon className="size-6 text-brand-600" aria-hidden="true" />
              <h3 className="mt-4 font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-gray-600">{feature.text}</p>
            </div>
          ))}
        </div>
      </section>

      <section id="pricing" className="scroll-mt-16 bg-gray-50">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <h2 className="text-3xl font-semibold tracking-tight">Simple pay-per-GB pricing</h2>
          <p className="mt-3 text-gray-600">No subscriptions. Buy from 5 GB; unused traffic never expires.</p>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {POOL_TYPES.map((pool) => (
              <div
                key={pool}
                className={`relative rounded-xl border bg-white p-6 ${pool === 'residential' ? 'border-brand-500 ring-1 ring-brand-500' : 'border-gray-200'}`}
              >
                {pool === 'residential' ? (
                  <Badge tone="brand" className="absolute -top-3 left-6">
                    Most Popular
                  </Badge>
                ) : null}
                <h3 className="font-semibold">{POOL_NAMES[pool]}</h3>
                <p className="mt-4">
                  <span className="text-4xl font-semibold">{formatUsd(PRICE_PER_GB_CENTS[pool])}</span>
                  <span className="text-gray-500"> / GB</span>
                </p>
                <p className="mt-3 text-sm text-gray-600">{poolBlurbs[pool]}</p>
                <Button
                  asChild
                  className="mt-6 w-full"
                  variant={pool === 'residential' ? 'primary' : 'secondary'}
                >
                  <Link to="/signup">Get Started</Link>
                </Button>
              </div>
            ))}
          </div>
          <PremiumResidential />
        </div>
      </section>

      <section id="support" className="scroll-mt-16 mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <div className="flex flex-col items-start gap-6 rounded-2xl bg-brand-900 p-8 text-white sm:flex-row sm:items-center sm:justify-between sm:p-12">
          <div>
            <HeadphonesIcon className="size-7 text-brand-200" aria-hidden="true" />
            <h2 className="mt-4 text-2xl font-semibold">24/7 support from people who run proxies</h2>
            <p className="mt-2 text-brand-100">
              Guides in the Help Center, and a real person when you need one.
            </p>
          </div>
          <div className="flex gap-3">
            <Button asChild variant="secondary">
              <Link to="/help">Help Center</Link>
            </Button>
            <Button asChild variant="secondary">
              <Link to="/contact">Contact</Link>
            </Button>
          </div>
        </div>
      </section>
      <ScrollToTop />
    </>
  );
}

const premiumPoints = [
  'Response times under 50 ms',
  '99.9% uptime',
  'A dedicated account manager',
  'Custom endpoints',
  'All targeting included',
  'Pricing on request',
];

/** The enterprise offer: premium residential, arranged through the contact page. */
function PremiumResidential() {
  return (
    <section
      aria-labelledby="premium-heading"
      className="mt-10 grid gap-8 rounded-2xl border border-gray-200 bg-white p-6 sm:p-8 lg:grid-cols-[1fr_auto] lg:items-center"
    >
      <div>
        <Badge tone="brand">Enterprise</Badge>
        <h3 id="premium-heading" className="mt-3 text-xl font-semibold text-gray-900">
          Premium Residential
        </h3>
        <p className="mt-2 max-w-2xl text-gray-600">
          Our fastest residential pool for teams that run at scale, with custom endpoints and volume pricing.
        </p>
        <ul className="mt-5 grid gap-x-8 gap-y-2 text-sm text-gray-700 sm:grid-cols-2 lg:grid-cols-3">
          {premiumPoints.map((point) => (
            <li key={point} className="flex items-center gap-2">
              <CheckIcon className="size-4 shrink-0 text-brand-600" aria-hidden="true" />
              {point}
            </li>
          ))}
        </ul>
      </div>
      <Button asChild size="lg" className="justify-self-start">
        <Link to="/contact">Contact Sales</Link>
      </Button>
    </section>
  );
}

function ScrollToTop() {
  const [isVisible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TO_TOP_THRESHOLD_PX);
    // A page reloaded halfway down shows the button at once.
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!isVisible) {
    return null;
  }
  return (
    <Button
      size="icon"
      className="fixed right-6 bottom-6 z-30 rounded-full shadow-lg"
      aria-label="Scroll to top"
      onClick={() => window.scrollTo({ top: 0, behavior: scrollBehavior() })}
    >
      <ArrowUpIcon />
    </Button>
  );
}
