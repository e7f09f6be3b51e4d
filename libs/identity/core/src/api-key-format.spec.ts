import { crc32, generateApiKey, ORG_KEY_LENGTH, parseApiKey } from './api-key-format';

describe('organisation API key format', () => {
  it('generates keys that parse back to their lookup id', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^svc_org_[0-9A-Za-z]{54}$/);
    expect(key).toHaveLength(ORG_KEY_LENGTH);
    expect(parseApiKey(key)).toEqual({ lookupId: key.slice(8, 24), raw: key });
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey()));
    expect(keys.size).toBe(2000);
  });

  it('rejects a mistyped character through the checksum', () => {
    const key = generateApiKey();
    const i = 20;
    const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(parseApiKey(typo)).toBeNull();
  });

  it('rejects truncated, extended, wrong-prefix and non-base62 keys', () => {
    const key = generateApiKey();
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key}x`)).toBeNull();
    expect(parseApiKey(key.replace('svc_org_', 'svc_ins_'))).toBeNull();
    expect(parseApiKey(key.replace(/.$/, '-'))).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('computes the standard CRC32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });
});
