import { hubSignature, validSignature } from '../../domain/whatsapp/signature';

// Meta signs every webhook post with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under the app
// secret>` (docs/api/whatsapp.md#webhook). This vector was computed outside the service
// (`printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"`), so the service's code is checked against it.
const SECRET = 'e3b0c44298fc1c149afbf4c8996fb924';
const BODY =
  '{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"field":"messages","value":{"messaging_product":"whatsapp"}}]}]}';
const HEADER = 'sha256=1dc364c697c9055e8cb2218126487c19bee9faa7efde34e053f649220e090732';

describe("Meta's X-Hub-Signature-256", () => {
  it('signs a fixed body under a fixed app secret to the known value', () => {
    expect(hubSignature(SECRET, Buffer.from(BODY))).toBe(HEADER);
    expect(validSignature(SECRET, Buffer.from(BODY), HEADER)).toBe(true);
    // Meta's hex is lower-case; an upper-case header is the same signature
    expect(validSignature(SECRET, Buffer.from(BODY), HEADER.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
  });

  it('refuses another body, another secret, a bare hex digest or no header', () => {
    expect(validSignature(SECRET, Buffer.from(`${BODY} `), HEADER)).toBe(false);
    expect(validSignature(`${SECRET}x`, Buffer.from(BODY), HEADER)).toBe(false);
    expect(validSignature(SECRET, Buffer.from(BODY), HEADER.slice('sha256='.length))).toBe(false);
    expect(validSignature(SECRET, Buffer.from(BODY), undefined)).toBe(false);
  });
});
