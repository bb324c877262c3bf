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

  it('trusts reverse proxies by hop count or by address, never blindly', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 10.8.0.0/16 ,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.8.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: must say which proxies to trust: their number \(1 for one reverse proxy\) or their addresses/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, nginx' })).toThrow(
      /TRUST_PROXY: must be a number of proxy hops/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses TRUST_PROXY spellings that trust every address, as it refuses true', () => {
    for (const everything of ['0.0.0.0/0', '::/0', '10.0.0.1, 0.0.0.0/0', '128.0.0.0/1', '::ffff:0:0/96']) {
      expect(() => loadConfig({ TRUST_PROXY: everything }), everything).toThrow(
        /TRUST_PROXY: must name the proxies' own addresses or networks .* would believe any X-Forwarded-For, as true would/,
      );
    }
    expect(() => loadConfig({ TRUST_PROXY: '999' })).toThrow(
      /TRUST_PROXY: must be at most 5 proxy hops .*; 999 would believe any X-Forwarded-For, as true would/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '6' })).toThrow(/TRUST_PROXY: must be at most 5 proxy hops/);
    expect(() => loadConfig({ TRUST_PROXY: '2000::/4' })).toThrow(/TRUST_PROXY: must name the proxies/);
    // Real fronts stay accepted: a few hops, private networks, a CDN's published ranges.
    expect(loadConfig({ TRUST_PROXY: '5' }).trustProxy).toBe(5);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8,104.16.0.0/13,2400:cb00::/32,fc00::/7' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '104.16.0.0/13', '2400:cb00::/32', 'fc00::/7']);
    expect(loadConfig({ TRUST_PROXY: '::ffff:10.0.0.0/104' }).trustProxy).toEqual(['::ffff:10.0.0.0/104']);
  });

  describe('settings that reopen what the defaults close', () => {
    const live = { CRYPTOMUS_MERCHANT_ID: 'merchant', CRYPTOMUS_API_KEY: 'key' };
    const https = { PUBLIC_URL: 'https://proxies.example.com' };
    const dangers = {
      'public-metrics': { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' },
      'sandbox-beside-live': { ...https, ...live, PAYMENTS_SANDBOX: 'on' },
      'private-targets': { ...https, GATEWAY_ALLOW_PRIVATE_TARGETS: 'true' },
    };

    it('stop start-up, naming the settings and the override', () => {
      expect(() => loadConfig(dangers['public-metrics'])).toThrow(
        /METRICS_HOST=0\.0\.0\.0 serves \/metrics on METRICS_PORT beyond this machine without METRICS_TOKEN.*add public-metrics to I_KNOW_THIS_IS_UNSAFE/,
      );
      expect(() => loadConfig(dangers['sandbox-beside-live'])).toThrow(
        /PAYMENTS_SANDBOX=on beside the live Cryptomus on an https PUBLIC_URL .*add sandbox-beside-live to I_KNOW_THIS_IS_UNSAFE/,
      );
      expect(() => loadConfig(dangers['private-targets'])).toThrow(
        /GATEWAY_ALLOW_PRIVATE_TARGETS on an https PUBLIC_URL lets customers reach .*add private-targets to I_KNOW_THIS_IS_UNSAFE/,
      );
      expect(() => loadConfig({ ...https, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' })).toThrow(
        /WEBHOOKS_ALLOW_PRIVATE_TARGETS on an https PUBLIC_URL/,
      );
    });

    it('run knowingly with I_KNOW_THIS_IS_UNSAFE naming each, which the config carries for the warning', () => {
      for (const [name, env] of Object.entries(dangers)) {
        const config = loadConfig({ ...env, I_KNOW_THIS_IS_UNSAFE: name });
        expect(config.unsafeSettings.map((unsafe) => unsafe.name)).toEqual([name]);
      }
      const all = {
        ...dangers['public-metrics'],
        ...dangers['sandbox-beside-live'],
        ...dangers['private-targets'],
      };
      // One override does not cover another danger.
      expect(() => loadConfig({ ...all, I_KNOW_THIS_IS_UNSAFE: 'public-metrics' })).toThrow(
        /PAYMENTS_SANDBOX=on[^\n]*\n.*GATEWAY_ALLOW_PRIVATE_TARGETS/,
      );
      const knowing = loadConfig({
        ...all,
        I_KNOW_THIS_IS_UNSAFE: ' public-metrics, sandbox-beside-live,private-targets',
      });
      expect(knowing.unsafeSettings).toHaveLength(3);
      expect(() => loadConfig({ I_KNOW_THIS_IS_UNSAFE: 'everything' })).toThrow(
        /I_KNOW_THIS_IS_UNSAFE.*: must list only public-metrics, sandbox-beside-live, private-targets/,
      );
    });

    it('accept the safe neighbours of each', () => {
      const safe = [
        { METRICS_PORT: '9464' },
        { METRICS_PORT: '9464', METRICS_HOST: '::1' },
        { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'sixteen-chars-ok' },
        // No METRICS_PORT: nothing listens at METRICS_HOST.
        { METRICS_HOST: '0.0.0.0' },
        { ...live, PAYMENTS_SANDBOX: 'on' },
        { ...https, PAYMENTS_SANDBOX: 'on' },
        { ...https, ...live, PAYMENTS_SANDBOX: 'auto' },
        { GATEWAY_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' },
      ];
      for (const env of safe) {
        expect(loadConfig(env).unsafeSettings, JSON.stringify(env)).toEqual([]);
      }
    });
  });

  it('reads extra open ports for development', () => {
    expect(loadConfig({}).gateway.extraOpenPorts).toEqual([]);
    expect(loadConfig({ GATEWAY_OPEN_PORTS: ' 25, 3306 ' }).gateway.extraOpenPorts).toEqual([25, 3306]);
  });

  it('runs no agent hub unless GATEWAY_AGENT_PORT is set, and takes its certificate and key together', () => {
    expect(loadConfig({}).gateway.agentHub).toBeNull();
    expect(loadConfig({ GATEWAY_AGENT_PORT: '8825' }).gateway.agentHub).toEqual({
      port: 8825,
      certPath: undefined,
      keyPath: undefined,
    });
    expect(
      loadConfig({
        GATEWAY_AGENT_PORT: '8825',
        GATEWAY_AGENT_TLS_CERT: 'c.pem',
        GATEWAY_AGENT_TLS_KEY: 'k.pem',
      }).gateway.agentHub?.certPath,
    ).toMatch(/\/c\.pem$/);
    expect(() => loadConfig({ GATEWAY_AGENT_PORT: 'hub' })).toThrow(/GATEWAY_AGENT_PORT/);
    expect(() => loadConfig({ GATEWAY_AGENT_PORT: '8825', GATEWAY_AGENT_TLS_CERT: 'c.pem' })).toThrow(
      /GATEWAY_AGENT_TLS_KEY: must be set, because GATEWAY_AGENT_TLS_CERT is/,
    );
    expect(() => loadConfig({ GATEWAY_AGENT_TLS_CERT: 'c.pem', GATEWAY_AGENT_TLS_KEY: 'k.pem' })).toThrow(
      /GATEWAY_AGENT_TLS_CERT: set, but GATEWAY_AGENT_PORT is not/,
    );
  });

  it('needs both reCAPTCHA keys or neither', () => {
    expect(() => loadConfig({ RECAPTCHA_SITE_KEY: 'site' })).toThrow(
      /RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY/,
    );
    const config = loadConfig({ RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' });
    expect(config.recaptcha?.verifyUrl).toBe('https://www.google.com/recaptcha/api/siteverify');
  });

  it('runs more than one gateway worker only on PostgreSQL and Redis, from 1 to 64', () => {
    expect(loadConfig({}).gateway.workers).toBe(1);
    expect(() => loadConfig({ GATEWAY_WORKERS: '2', DATABASE_URL: 'postgres://localhost/db' })).toThrow(
      /GATEWAY_WORKERS: more than one gateway worker needs DATABASE_URL and REDIS_URL/,
    );
    const shared = { DATABASE_URL: 'postgres://localhost/db', REDIS_URL: 'redis://localhost:6379' };
    expect(loadConfig({ ...shared, GATEWAY_WORKERS: '4' }).gateway.workers).toBe(4);
    for (const wrong of ['0', '65', '1.5', 'two']) {
      expect(() => loadConfig({ ...shared, GATEWAY_WORKERS: wrong })).toThrow(
        /GATEWAY_WORKERS: must be a whole number from 1 to 64/,
      );
    }
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

  it('reads PAYMENTS_SANDBOX: auto by default, on or off, and stops on anything else', () => {
    expect(loadConfig({}).paymentsSandbox).toBe('auto');
    expect(loadConfig({ PAYMENTS_SANDBOX: 'on' }).paymentsSandbox).toBe('on');
    expect(loadConfig({ PAYMENTS_SANDBOX: 'off' }).paymentsSandbox).toBe('off');
    expect(() => loadConfig({ PAYMENTS_SANDBOX: 'yes' })).toThrow(
      /PAYMENTS_SANDBOX: must be auto, on or off/,
    );
  });

  it('stops on a half-configured payment provider, naming the missing variable', () => {
    expect(() => loadConfig({ CRYPTOMUS_MERCHANT_ID: 'merchant' })).toThrow(
      /CRYPTOMUS_API_KEY: must be set, because CRYPTOMUS_MERCHANT_ID is/,
    );
    expect(() => loadConfig({ CRYPTOMUS_API_KEY: 'key' })).toThrow(/CRYPTOMUS_MERCHANT_ID: must be set/);
    const bitcart = { BITCART_API_URL: 'https://pay.example/api', BITCART_TOKEN: 'token' };
    expect(() => loadConfig(bitcart)).toThrow(
      /BITCART_STORE_ID: must be set, because BITCART_API_URL and BITCART_TOKEN are/,
    );
    let message = '';
    try {
      loadConfig({ BITCART_ADMIN_URL: 'https://pay.example/admin' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/BITCART_API_URL: must be set/);
    expect(message).toMatch(/BITCART_TOKEN: must be set/);
    expect(message).toMatch(/BITCART_STORE_ID: must be set/);
    const complete = loadConfig({ ...bitcart, BITCART_STORE_ID: 'store' });
    expect(complete.bitcart?.adminUrl).toBe('https://pay.example/admin');
    expect(complete.cryptomus).toBeNull();
  });

  it('turns sign-in with Google on with both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, naming a missing one', () => {
    expect(loadConfig({}).google).toBeNull();
    expect(
      loadConfig({ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's' }).google,
    ).toEqual({
      clientId: 'id.apps.googleusercontent.com',
      clientSecret: 's',
      issuerUrl: 'https://accounts.google.com',
    });
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow(
      /GOOGLE_CLIENT_SECRET: must be set, because GOOGLE_CLIENT_ID is \(Sign-in with Google needs GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET/,
    );
    expect(() => loadConfig({ GOOGLE_CLIENT_SECRET: 'secret' })).toThrow(
      /GOOGLE_CLIENT_ID: must be set, because GOOGLE_CLIENT_SECRET is/,
    );
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: '  ' })).toThrow(
      /GOOGLE_CLIENT_SECRET: must be set/,
    );
  });

  it('reads GOOGLE_ISSUER_URL: https, or http only on a loopback host', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };
    for (const good of [
      'https://issuer.example/realms/a',
      'http://127.0.0.1:9000',
      'http://localhost:9000',
      'http://[::1]:9000',
    ]) {
      expect(loadConfig({ ...google, GOOGLE_ISSUER_URL: good }).google?.issuerUrl).toBe(good);
    }
    for (const bad of [
      'http://issuer.example',
      'http://10.0.0.1',
      'accounts.google.com',
      'ftp://issuer.example',
      'https://u:p@issuer.example',
      'https://issuer.example/?a=1',
    ]) {
      expect(() => loadConfig({ ...google, GOOGLE_ISSUER_URL: bad })).toThrow(
        /GOOGLE_ISSUER_URL: must be an https:\/\/ issuer URL/,
      );
    }
  });

  it('sends mail through SMTP_URL, or to the outbox when it is unset', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'Bytegate <no-reply@localhost>' });
    expect(loadConfig({ SMTP_URL: ' ' }).mail.smtpUrl).toBeNull();
    expect(loadConfig({ SMTP_URL: 'smtp://user:pass@mail.example:587' }).mail.smtpUrl).toBe(
      'smtp://user:pass@mail.example:587',
    );
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example' }).mail.smtpUrl).toBe('smtps://mail.example');
    for (const bad of ['mail.example:587', 'http://mail.example', 'smtp://', 'smtp:mail']) {
      expect(() => loadConfig({ SMTP_URL: bad })).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    }
  });

  it('reads EMAIL_VERIFICATION: required with SMTP_URL and off without under auto, and stops on anything else', () => {
    const smtp = { SMTP_URL: 'smtp://mail.example:587' };
    expect(loadConfig({}).emailVerification).toBe('off');
    expect(loadConfig(smtp).emailVerification).toBe('required');
    expect(loadConfig({ ...smtp, EMAIL_VERIFICATION: 'auto' }).emailVerification).toBe('required');
    expect(loadConfig({ ...smtp, EMAIL_VERIFICATION: 'off' }).emailVerification).toBe('off');
    expect(loadConfig({ EMAIL_VERIFICATION: 'required' }).emailVerification).toBe('required');
    expect(() => loadConfig({ EMAIL_VERIFICATION: 'yes' })).toThrow(
      /EMAIL_VERIFICATION: must be auto, required or off/,
    );
  });

  it('sends from MAIL_FROM, by default no-reply at the public host', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://bytegate.example:8443/' }).mail.from).toBe(
      'Bytegate <no-reply@bytegate.example>',
    );
    expect(loadConfig({ MAIL_FROM: 'Support <support@bytegate.example>' }).mail.from).toBe(
      'Support <support@bytegate.example>',
    );
    expect(loadConfig({ MAIL_FROM: 'support@bytegate.example' }).mail.from).toBe('support@bytegate.example');
    for (const bad of ['support', 'a@b.example, c@d.example', 'Support <support>', 'x@y\r\nBcc: z@w']) {
      expect(() => loadConfig({ MAIL_FROM: bad })).toThrow(/MAIL_FROM: must be one sender/);
    }
  });

  it('probes exits only with EXIT_PROBE_URL, every EXIT_PROBE_INTERVAL_SECONDS (60 by default)', () => {
    expect(loadConfig({}).exitProbe).toBeNull();
    expect(loadConfig({ EXIT_PROBE_INTERVAL_SECONDS: '5' }).exitProbe).toBeNull();
    expect(loadConfig({ EXIT_PROBE_URL: 'https://probe.example/health' }).exitProbe).toEqual({
      url: 'https://probe.example/health',
      intervalSeconds: 60,
    });
    expect(
      loadConfig({ EXIT_PROBE_URL: 'http://127.0.0.1:8080/', EXIT_PROBE_INTERVAL_SECONDS: '2' }).exitProbe,
    ).toEqual({ url: 'http://127.0.0.1:8080/', intervalSeconds: 2 });
    for (const bad of ['probe.example', 'ftp://probe.example/', 'https://user:pass@probe.example/']) {
      expect(() => loadConfig({ EXIT_PROBE_URL: bad })).toThrow(
        /EXIT_PROBE_URL: must be an http:\/\/ or https:\/\//,
      );
    }
    for (const bad of ['0', '1.5', 'soon', '86401']) {
      expect(() => loadConfig({ EXIT_PROBE_INTERVAL_SECONDS: bad })).toThrow(
        /EXIT_PROBE_INTERVAL_SECONDS: must be/,
      );
    }
  });

  it('gives tunnels SHUTDOWN_GRACE_S to finish on SIGTERM (30 by default, 0 to 3600)', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(30_000);
    expect(loadConfig({ SHUTDOWN_GRACE_S: '0' }).shutdownGraceMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_S: '3600' }).shutdownGraceMs).toBe(3_600_000);
    for (const [bad, message] of [
      ['-1', 'must be 0 (cut at once) or more'],
      ['3601', 'must be at most 3600 (an hour)'],
      ['1.5', 'must be a whole number of seconds'],
      ['soon', 'must be a number of seconds'],
    ]) {
      expect(() => loadConfig({ SHUTDOWN_GRACE_S: bad })).toThrow(`SHUTDOWN_GRACE_S: ${message}`);
    }
  });
});
