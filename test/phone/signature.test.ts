import twilio from 'twilio';
import { twilioSignature, verifyTwilioSignature } from '../../domain/phone/signature';

// Twilio's published example of X-Twilio-Signature (its security documentation): this URL, these POST
// parameters and the Auth Token 12345 sign to this value. The service's own implementation must agree
// with it and with Twilio's helper library.
const URL_SIGNED = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+12349013030',
  Digits: '1234',
  From: '+12349013030',
  To: '+18005551212',
};
const EXPECTED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';
const asForm = (p: Record<string, string>) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, [v]]));

describe("Twilio's request signature", () => {
  it("matches Twilio's published example and its helper library", () => {
    expect(twilio.getExpectedTwilioSignature('12345', URL_SIGNED, PARAMS)).toBe(EXPECTED);
    expect(twilio.validateRequest('12345', EXPECTED, URL_SIGNED, PARAMS)).toBe(true);
    expect(twilioSignature('12345', URL_SIGNED, asForm(PARAMS))).toBe(EXPECTED);
    expect(verifyTwilioSignature('12345', URL_SIGNED, asForm(PARAMS), EXPECTED)).toBe(true);
  });

  it('refuses another token, URL, parameter or a missing header', () => {
    expect(verifyTwilioSignature('12346', URL_SIGNED, asForm(PARAMS), EXPECTED)).toBe(false);
    expect(verifyTwilioSignature('12345', `${URL_SIGNED}&baz=3`, asForm(PARAMS), EXPECTED)).toBe(false);
    expect(verifyTwilioSignature('12345', URL_SIGNED, asForm({ ...PARAMS, Digits: '1235' }), EXPECTED)).toBe(false);
    expect(verifyTwilioSignature('12345', URL_SIGNED, asForm(PARAMS), undefined)).toBe(false);
  });

  it("accepts the URL with the scheme's default port written out, as Twilio's library does", () => {
    const withPort = 'https://mycompany.com:443/myapp.php?foo=1&bar=2';
    const signed = twilio.getExpectedTwilioSignature('12345', withPort, PARAMS);
    expect(verifyTwilioSignature('12345', URL_SIGNED, asForm(PARAMS), signed)).toBe(true);
    expect(twilio.validateRequest('12345', signed, URL_SIGNED, PARAMS)).toBe(true);
  });

  it("signs a repeated parameter's values sorted, as Twilio's library does", () => {
    const params = { StatusCallbackEvent: ['ringing', 'answered'], To: '+18005551212' };
    const signed = twilio.getExpectedTwilioSignature('12345', URL_SIGNED, params);
    const form = { StatusCallbackEvent: ['ringing', 'answered'], To: ['+18005551212'] };
    expect(verifyTwilioSignature('12345', URL_SIGNED, form, signed)).toBe(true);
  });
});
