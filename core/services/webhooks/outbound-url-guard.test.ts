/** The outbound URL guard: schemes, every private and special range, numeric-host tricks, names that resolve inward, the allow list. */
import { describe, expect, test } from 'bun:test';
import { createOutboundUrlGuard, parseAllowList } from './outbound-url-guard.ts';

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'inside.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-inside.example.com': ['fd12:3456::1'],
  localhost: ['127.0.0.1', '::1'],
  'ci.internal': ['10.20.30.40'],
  'a.corp.internal': ['10.9.9.9'],
};
const resolver = {
  async resolve(name: string) {
    const answers = dns[name];
    if (!answers) throw new Error(`ENOTFOUND ${name}`);
    return answers;
  },
};
const guard = (allow: string[] = []) => createOutboundUrlGuard({ resolver, allow: parseAllowList(allow) });

async function refusal(url: string, allow: string[] = []) {
  const result = await guard(allow).check(url);
  return result.ok ? null : result.reason;
}

describe('refused targets', () => {
  const cases: Array<[string, string]> = [
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://127.8.9.10:8080/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://10.0.0.1/', 'private (10.0.0.0/8)'],
    ['http://172.16.0.1/', 'private (172.16.0.0/12)'],
    ['http://172.31.255.254/', 'private (172.16.0.0/12)'],
    ['http://192.168.1.1/', 'private (192.168.0.0/16)'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://0.0.0.0/', 'this network'],
    ['http://[::1]/', 'loopback (::1)'],
    ['http://[::]/', 'unspecified'],
    ['http://[fc00::1]/', 'unique local'],
    ['http://[fd12:3456::1]/', 'unique local'],
    ['http://[fe80::1]/', 'link-local (fe80::/10)'],
    ['http://[::ffff:127.0.0.1]/', 'loopback (127.0.0.0/8), written as IPv6'],
    ['http://[::ffff:a9fe:a9fe]/', 'metadata'],
    ['http://[64:ff9b::10.0.0.1]/', 'private (10.0.0.0/8), written as IPv6'],
    ['http://[2002:c0a8:0101::1]/', 'private (192.168.0.0/16), written as IPv6'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible'],
    // Numeric host forms: decimal, hex, octal, short and mixed; all are 127.0.0.1 or 10.0.0.1 to the URL parser.
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0x7f.0x0.0x0.0x1/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://167772161/', 'private (10.0.0.0/8)'],
    ['http://0xa.0.0.1/', 'private (10.0.0.0/8)'],
    ['http://127.0.0.1./', 'loopback'],
    // Names that resolve inward, one bad answer among good ones included.
    ['https://inside.example.com/hook', 'inside.example.com resolves to 10.1.2.3'],
    ['https://mixed.example.com/hook', 'mixed.example.com resolves to 192.168.1.10'],
    ['https://metadata.example.com/', '169.254.169.254'],
    ['https://v6-inside.example.com/', 'unique local'],
    ['http://LOCALHOST./', 'loopback'],
  ];
  for (const [url, expected] of cases) {
    test(url, async () => {
      const reason = await refusal(url);
      expect(reason).toContain(expected);
      expect(reason).toContain('WEBHOOK_ALLOW_HOSTS');
    });
  }

  test('other schemes, credentials, garbage and names that do not resolve', async () => {
    expect(await refusal('ftp://hooks.example.com/')).toBe('url must use http or https, not ftp');
    expect(await refusal('file:///etc/passwd')).toContain('http or https');
    expect(await refusal('gopher://127.0.0.1:6379/_INFO')).toContain('http or https');
    expect(await refusal('https://user:pw@hooks.example.com/')).toContain('user name or password');
    expect(await refusal('not a url')).toBe('url is not a valid absolute URL');
    expect(await refusal('https://nowhere.example.com/')).toBe('the host nowhere.example.com does not resolve');
  });
});

describe('allowed targets', () => {
  test('public addresses and names with only public answers', async () => {
    const result = await guard().check('https://hooks.example.com/in?x=1');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.addresses).toHaveLength(2);
    expect(await refusal('http://93.184.215.14:8080/')).toBeNull();
    expect(await refusal('http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/')).toBeNull();
    expect(await refusal('http://[::ffff:93.184.215.14]/')).toBeNull();
    expect(await refusal('http://172.32.0.1/')).toBeNull(); // just past 172.16.0.0/12
  });

  test('WEBHOOK_ALLOW_HOSTS: a CIDR, a single address, a host name and a wildcard domain', async () => {
    expect(await refusal('http://127.0.0.1:9000/', ['127.0.0.1'])).toBeNull();
    expect(await refusal('http://2130706433:9000/', ['127.0.0.1'])).toBeNull();
    expect(await refusal('http://127.0.0.2:9000/', ['127.0.0.1'])).toContain('loopback');
    expect(await refusal('http://10.200.1.1/', ['10.0.0.0/8'])).toBeNull();
    expect(await refusal('https://inside.example.com/', ['10.0.0.0/8'])).toBeNull();
    expect(await refusal('http://[fd00::5]/', ['fd00::/8'])).toBeNull();
    expect(await refusal('http://[::1]/', ['127.0.0.1'])).toContain('loopback (::1)');
    expect(await refusal('http://ci.internal/', ['ci.internal'])).toBeNull();
    expect(await refusal('http://a.corp.internal/', ['*.corp.internal'])).toBeNull();
    expect(await refusal('http://ci.internal/', ['*.corp.internal'])).toContain('10.20.30.40');
    // Allowing a name does not allow an address literal that happens to be one of its answers.
    expect(await refusal('http://10.20.30.40/', ['ci.internal'])).toContain('private');
  });
});
