import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '@flatlay/platform';
import { rateLimitEnvSchema } from '../config.js';
import { clientBucketOf, parseTrustProxy } from './client-address.js';

describe('TRUST_PROXY', () => {
  it('reads a hop count or a list of addresses, ranges and named ranges', () => {
    assert.equal(parseTrustProxy('1'), 1);
    assert.equal(parseTrustProxy(' 2 '), 2);
    assert.deepEqual(parseTrustProxy('10.0.0.0/8, fd00::/8,loopback'), ['10.0.0.0/8', 'fd00::/8', 'loopback']);
    assert.deepEqual(parseTrustProxy('192.168.1.7,10.0.0.0/255.0.0.0'), ['192.168.1.7', '10.0.0.0/255.0.0.0']);
  });

  it('refuses `true`, malformed entries and bad prefixes', () => {
    for (const bad of ['true', 'all', '10.0.0.0/33', 'fd00::/129', '10.0.0/8', '1.2.3.4/8/8', ',', '99'])
      assert.throws(() => parseTrustProxy(bad), Error, bad);
  });

  it('defaults to loopback, and stops the start with a message naming the variable, not its value', () => {
    const schema = z.object({ TRUST_PROXY: rateLimitEnvSchema.shape.TRUST_PROXY });
    assert.deepEqual(loadConfig(schema, {}).TRUST_PROXY, ['loopback']);
    assert.equal(loadConfig(schema, { TRUST_PROXY: '1' }).TRUST_PROXY, 1);
    assert.throws(
      () => loadConfig(schema, { TRUST_PROXY: 'secret-looking-value' }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /TRUST_PROXY is invalid: expected a hop count/);
        assert.ok(!e.message.includes('secret-looking-value'));
        return true;
      },
    );
  });
});

describe('rate-limit bucket of a client address', () => {
  it('is the address for IPv4, also when IPv4-mapped in IPv6', () => {
    assert.equal(clientBucketOf('203.0.113.9'), '203.0.113.9');
    assert.equal(clientBucketOf('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(clientBucketOf('::FFFF:203.0.113.9'), '203.0.113.9');
    assert.equal(clientBucketOf('::ffff:cb00:7109'), '203.0.113.9');
  });

  it('is the /64 for IPv6, whatever the notation', () => {
    const bucket = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0:0:0:9',
      '2001:DB8:1:2::abcd',
      '2001:db8:1:2::5%eth0',
    ])
      assert.equal(clientBucketOf(ip), bucket, ip);
    assert.equal(clientBucketOf('2001:db8:1:3::1'), '2001:db8:1:3::/64');
    assert.equal(clientBucketOf('::1'), '0:0:0:0::/64');
    assert.equal(clientBucketOf('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  });

  it('is a fixed bucket when the address is unknown', () => {
    assert.equal(clientBucketOf(undefined), 'unknown');
  });
});
