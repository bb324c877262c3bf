import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.gateway.host).toBe('localhost');
    expect([...config.roles].sort()).toEqual(['api', 'gateway', 'jobs', 'web']);
    expect(config.recaptcha).toBeNull();
  });

  it('names the variable of a bad setting', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ ROLES: 'web,cake' })).toThrow(/ROLES/);
    expect(() => loadConfig({ GATEWAY_STICKY_PORTS: '20000-10000' })).toThrow(/GATEWAY_STICKY_PORTS/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ GATEWAY_OPEN_PORTS: '25,smtp' })).toThrow(/GATEWAY_OPEN_PORTS/);
    expect(() => loadConfig({ GATEWAY_OPEN_PORTS: '70000' })).toThrow(/GATEWAY_OPEN_PORTS/);
  });

  it('reads extra open ports for development', () => {
    expect(loadConfig({}).gateway.extraOpenPorts).toEqual([]);
    expect(loadConfig({ GATEWAY_OPEN_PORTS: ' 25, 3306 ' }).gateway.extraOpenPorts).toEqual([25, 3306]);
  });

  it('needs both reCAPTCHA keys or neither', () => {
    expect(() => loadConfig({ RECAPTCHA_SITE_KEY: 'site' })).toThrow(
      /RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY/,
    );
    const config = loadConfig({ RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' });
    expect(config.recaptcha?.verifyUrl).toBe('https://www.google.com/recaptcha/api/siteverify');
  });

  it('needs PostgreSQL to split the roles across processes', () => {
    expect(() => loadConfig({ ROLES: 'api' })).toThrow(/ROLES: running only some parts needs DATABASE_URL/);
    expect(loadConfig({ ROLES: 'api', DATABASE_URL: 'postgres://localhost/db' }).roles).toEqual(
      new Set(['api']),
    );
  });

  it('derives the gateway host from the public URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://bytegate.example/' }).gateway.host).toBe('gw.bytegate.example');
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).gateway.host).toBe('127.0.0.1');
    expect(loadConfig({ GATEWAY_HOST: 'proxy.example' }).gateway.host).toBe('proxy.example');
  });
});
