import type { Database } from '@bytegate/db';
import { countExits, createExits, type NewExit } from '@bytegate/db/queries';

// All leave from this host: in demo mode the locations are labels, so that targeting can be tried out.
const demo: Array<Omit<NewExit, 'kind' | 'name'>> = [
  {
    poolType: 'datacenter',
    country: 'US',
    state: 'Virginia',
    city: 'Ashburn',
    zip: '20147',
    asn: 16509,
    asnName: 'Amazon',
  },
  {
    poolType: 'datacenter',
    country: 'DE',
    state: 'Hesse',
    city: 'Frankfurt',
    zip: '60311',
    asn: 24940,
    asnName: 'Hetzner',
  },
  {
    poolType: 'datacenter',
    country: 'NL',
    state: 'North Holland',
    city: 'Amsterdam',
    zip: '1012',
    asn: 60781,
    asnName: 'LeaseWeb',
  },
  {
    poolType: 'residential',
    country: 'US',
    state: 'Texas',
    city: 'Austin',
    zip: '78701',
    asn: 7922,
    asnName: 'Comcast',
  },
  {
    poolType: 'residential',
    country: 'US',
    state: 'California',
    city: 'Los Angeles',
    zip: '90001',
    asn: 7018,
    asnName: 'AT&T',
  },
  {
    poolType: 'residential',
    country: 'GB',
    state: 'England',
    city: 'London',
    zip: 'EC1A',
    asn: 2856,
    asnName: 'BT',
  },
  {
    poolType: 'residential',
    country: 'DE',
    state: 'Berlin',
    city: 'Berlin',
    zip: '10115',
    asn: 3320,
    asnName: 'Deutsche Telekom',
  },
  {
    poolType: 'residential',
    country: 'FR',
    state: 'Ile-de-France',
    city: 'Paris',
    zip: '75001',
    asn: 3215,
    asnName: 'Orange',
  },
  {
    poolType: 'mobile',
    country: 'US',
    state: 'New York',
    city: 'New York',
    zip: '10001',
    asn: 21928,
    asnName: 'T-Mobile',
    mobileGeneration: '5G',
  },
  {
    poolType: 'mobile',
    country: 'DE',
    state: 'Bavaria',
    city: 'Munich',
    zip: '80331',
    asn: 3209,
    asnName: 'Vodafone',
    mobileGeneration: '4G',
  },
  {
    poolType: 'mobile',
    country: 'GB',
    state: 'England',
    city: 'Manchester',
    zip: 'M1',
    asn: 25135,
    asnName: 'Vodafone UK',
    mobileGeneration: 'LTE',
  },
];

/** Seeds a small demo inventory when there is none, so a new install has exits in every pool. */
export async function seedDemoExits(db: Database): Promise<number> {
  if ((await countExits(db)) > 0) {
    return 0;
  }
  const rows = await createExits(db, {
    exits: demo.map((exit) => ({ ...exit, kind: 'direct', name: `Demo ${exit.poolType} ${exit.city}` })),
  });
  return rows.length;
}
