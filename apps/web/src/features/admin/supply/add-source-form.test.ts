import { describe, expect, it } from 'vitest';
import {
  type AddSourceDraft,
  checkDraft,
  EMPTY_DRAFT,
  serverErrors,
  toAddSourceRequest,
} from './add-source-form.ts';

const draft = (fields: Partial<AddSourceDraft>): AddSourceDraft => ({
  ...EMPTY_DRAFT,
  name: 'Oxylabs residential',
  endpoint: 'pr.oxylabs.io:7777',
  username: 'acct',
  password: 'p@ss:w/rd',
  costPerGb: '1.20',
  reason: 'New vendor contract',
  ...fields,
});

describe('checkDraft', () => {
  it('passes a complete network', () => {
    expect(checkDraft(draft({}))).toEqual({});
  });

  it('names each empty or malformed field at once', () => {
    expect(
      checkDraft(
        draft({
          name: ' ',
          endpoint: '',
          username: '',
          password: '',
          weight: '-3',
          costPerGb: '1.234',
          reason: '',
        }),
      ),
    ).toEqual({
      name: 'Name is required',
      endpoint: 'Host and port are required, such as pr.oxylabs.io:7777',
      username: 'The account’s username is required',
      password: 'The account’s password is required',
      weight: 'Weight must be a whole number from 0 to 1,000,000',
      costPerGb: 'Cost per GB must be an amount in dollars, such as 1.20',
      reason: 'Reason must be at least 3 characters',
    });
  });

  it.each([
    ['http://acct:pw@pr.oxylabs.io:7777', /have fields of their own/],
    ['pr.oxylabs.io', /^Give the host and port/],
    ['[2001:db8::1]:1080', undefined],
    ['203.0.113.7:8000', undefined],
  ])('reads the endpoint %s', (endpoint, message) => {
    const found = checkDraft(draft({ endpoint })).endpoint;
    if (message) {
      expect(found).toMatch(message);
    } else {
      expect(found).toBeUndefined();
    }
  });

  it('asks the template grammar for a template, and our own exits for no endpoint', () => {
    expect(checkDraft(draft({ grammar: 'template' })).template).toBe(
      'The template grammar needs a username template',
    );
    expect(checkDraft(draft({ kind: 'exits', endpoint: '', username: '', password: '' }))).toEqual({});
  });
});

describe('toAddSourceRequest', () => {
  it('puts the endpoint and the account in one URL, the password encoded', () => {
    expect(toAddSourceRequest(draft({ protocol: 'socks5' }))).toEqual({
      name: 'Oxylabs residential',
      pool: 'residential',
      kind: 'network',
      grammar: 'oxylabs',
      url: 'socks5://acct:p%40ss%3Aw%2Frd@pr.oxylabs.io:7777',
      costPerGb: '1.20',
      weight: 100,
      state: 'active',
      reason: 'New vendor contract',
    });
  });

  it('sends a template with its password template, and our own exits without any network field', () => {
    expect(
      toAddSourceRequest(
        draft({ grammar: 'template', template: ' {user}-{country} ', passwordTemplate: '' }),
      ),
    ).toMatchObject({ grammar: 'template', template: '{user}-{country}' });
    const own = toAddSourceRequest(draft({ kind: 'exits', costPerGb: '' }));
    expect(own).toEqual({
      name: 'Oxylabs residential',
      pool: 'residential',
      kind: 'exits',
      weight: 100,
      state: 'active',
      reason: 'New vendor contract',
    });
  });
});

describe('serverErrors', () => {
  it('shows each field the server names under its own, the URL under the endpoint', () => {
    expect(
      serverErrors(
        {
          field: 'url',
          fields: {
            url: "url must carry the network account's USER:PASS",
            template: 'template: unknown placeholder',
          },
        },
        'ignored',
      ),
    ).toEqual({
      endpoint: "Url must carry the network account's USER:PASS",
      template: 'Template: unknown placeholder',
    });
    expect(serverErrors({ field: 'name', code: 'CONFLICT' }, 'A source is already named X')).toEqual({
      name: 'A source is already named X',
    });
    expect(serverErrors({ code: 'FORBIDDEN' }, 'Only an admin may do this')).toEqual({});
  });
});
