import { userSchema } from '@bytegate/contracts/auth';
import { describe, expect, it } from 'vitest';
import {
  clearSession,
  isStoredUser,
  type KeyValueStore,
  loadSession,
  SESSION_KEYS,
  saveSession,
} from './stored-session.ts';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
    removeItem: (key) => {
      data.delete(key);
    },
  };
}

const user = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  company: null,
  balance: 12.5,
  emailVerified: false,
};
const minute = 60_000;

describe('session rules', () => {
  it('keeps a session active within 30 minutes of the last activity', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    expect(loadSession(store, 29 * minute)).toEqual({ session: { user }, hasEnded: false });
  });

  it('never stores a token: the session itself is an httpOnly cookie', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    expect([...store.data.keys()].sort()).toEqual([SESSION_KEYS.lastActivity, SESSION_KEYS.user].sort());
  });

  it('removes a token an earlier version left in storage', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    store.setItem('bytegate.token', 'left over');
    expect(loadSession(store, 1).session).toEqual({ user });
    expect(store.data.has('bytegate.token')).toBe(false);
  });

  it('ends a session idle for more than 30 minutes, clearing storage and saying it ended', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    expect(loadSession(store, 30 * minute + 1)).toEqual({ session: null, hasEnded: true });
    expect(store.data.size).toBe(0);
  });

  it('clears a corrupt or wrongly shaped stored user', () => {
    for (const raw of ['{not json', '"just a string"', JSON.stringify({ ...user, balance: 'lots' })]) {
      const store = memoryStore();
      saveSession(store, { user }, 0);
      store.setItem(SESSION_KEYS.user, raw);
      expect(loadSession(store, 1), raw).toEqual({ session: null, hasEnded: true });
      expect(store.data.size).toBe(0);
    }
  });

  it('treats a missing user as signed out, with nothing to end', () => {
    const store = memoryStore();
    store.setItem(SESSION_KEYS.lastActivity, '0');
    expect(loadSession(store, 0)).toEqual({ session: null, hasEnded: false });
    expect(store.data.size).toBe(0);
  });

  it('treats an unreadable activity time as expired', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    store.setItem(SESSION_KEYS.lastActivity, 'yesterday');
    expect(loadSession(store, 0)).toEqual({ session: null, hasEnded: true });
  });

  it('clears everything on logout', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    clearSession(store);
    expect(store.data.size).toBe(0);
  });
});

describe('the stored user check', () => {
  it('accepts exactly what the contracts schema accepts', () => {
    const samples: unknown[] = [
      user,
      { ...user, company: 'Acme' },
      { ...user, extra: 'ignored' },
      { ...user, company: undefined },
      { ...user, emailVerified: true },
      { ...user, emailVerified: 'yes' },
      { ...user, emailVerified: undefined },
      { ...user, balance: '12.50' },
      { ...user, email: 42 },
      { firstName: 'Ada' },
      null,
      'user',
      [],
    ];
    for (const sample of samples) {
      expect(isStoredUser(sample), JSON.stringify(sample)).toBe(userSchema.safeParse(sample).success);
    }
  });

  it('keeps only the known fields of a stored user', () => {
    const store = memoryStore();
    saveSession(store, { user }, 0);
    store.setItem(SESSION_KEYS.user, JSON.stringify({ ...user, injected: '<script>' }));
    expect(loadSession(store, 1).session?.user).toEqual(user);
  });
});
