/**
 * Bank exports as real banks write them, for the finance tests: an OFX 1.0.2 SGML statement (unclosed leaf
 * elements, a stray `&`, Windows line ends), an OFX 2.1.1 XML credit-card statement, and CSV exports with a
 * UTF-8 BOM, semicolons and decimal commas (as European banks export), or tabs with debit/credit columns.
 */

export const OFX_SGML = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'SECURITY:NONE',
  'ENCODING:USASCII',
  'CHARSET:1252',
  'COMPRESSION:NONE',
  'OLDFILEUID:NONE',
  'NEWFILEUID:NONE',
  '',
  '<OFX>',
  '<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261101120000[-5:EST]<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>',
  '<BANKMSGSRSV1>',
  '<STMTTRNRS>',
  '<TRNUID>1',
  '<STATUS><CODE>0<SEVERITY>INFO</STATUS>',
  '<STMTRS>',
  '<CURDEF>USD',
  '<BANKACCTFROM><BANKID>121000248<ACCTID>123456789<ACCTTYPE>CHECKING</BANKACCTFROM>',
  '<BANKTRANLIST>',
  '<DTSTART>20261001',
  '<DTEND>20261031',
  '<STMTTRN>',
  '<TRNTYPE>DEBIT',
  '<DTPOSTED>20261003120000[-5:EST]',
  '<TRNAMT>-42.17',
  '<FITID>2026100301',
  '<NAME>COFFEE & CO',
  '<MEMO>Card purchase',
  '</STMTTRN>',
  '<STMTTRN>',
  '<TRNTYPE>CREDIT',
  '<DTPOSTED>20261005',
  '<TRNAMT>1500.00',
  '<FITID>2026100502',
  '<NAME>ACME PAYROLL',
  '</STMTTRN>',
  '<STMTTRN>',
  '<TRNTYPE>DEBIT',
  '<DTPOSTED>20261009',
  '<TRNAMT>-1200.00',
  '<FITID>2026100903',
  '<NAME>OAK STREET RENT',
  '</STMTTRN>',
  '</BANKTRANLIST>',
  '<LEDGERBAL><BALAMT>257.83<DTASOF>20261031</LEDGERBAL>',
  '</STMTRS>',
  '</STMTTRNRS>',
  '</BANKMSGSRSV1>',
  '</OFX>',
  '',
].join('\r\n');

export const OFX_XML = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX>
  <SIGNONMSGSRSV1>
    <SONRS>
      <STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>
      <DTSERVER>20261101093000.000[0:GMT]</DTSERVER>
      <LANGUAGE>ENG</LANGUAGE>
    </SONRS>
  </SIGNONMSGSRSV1>
  <CREDITCARDMSGSRSV1>
    <CCSTMTTRNRS>
      <TRNUID>0</TRNUID>
      <STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>
      <CCSTMTRS>
        <CURDEF>EUR</CURDEF>
        <CCACCTFROM><ACCTID>4111111111111111</ACCTID></CCACCTFROM>
        <BANKTRANLIST>
          <DTSTART>20261001000000.000[0:GMT]</DTSTART>
          <DTEND>20261031000000.000[0:GMT]</DTEND>
          <STMTTRN>
            <TRNTYPE>DEBIT</TRNTYPE>
            <DTPOSTED>20261012000000.000[0:GMT]</DTPOSTED>
            <TRNAMT>-19.99</TRNAMT>
            <FITID>CC-7781</FITID>
            <NAME>Streamly subscription</NAME>
          </STMTTRN>
          <STMTTRN>
            <TRNTYPE>DEBIT</TRNTYPE>
            <DTPOSTED>20261014000000.000[0:GMT]</DTPOSTED>
            <TRNAMT>-64.50</TRNAMT>
            <FITID>CC-7782</FITID>
            <NAME>Hotel Lisboa</NAME>
            <CURRENCY><CURRATE>1.0</CURRATE><CURSYM>XQQ</CURSYM></CURRENCY>
          </STMTTRN>
          <STMTTRN>
            <TRNTYPE>CREDIT</TRNTYPE>
            <DTPOSTED>20261020000000.000[0:GMT]</DTPOSTED>
            <TRNAMT>250.00</TRNAMT>
            <FITID>CC-7783</FITID>
            <NAME>Payment &amp; thank you</NAME>
          </STMTTRN>
        </BANKTRANLIST>
      </CCSTMTRS>
    </CCSTMTTRNRS>
  </CREDITCARDMSGSRSV1>
</OFX>
`;

/** A European bank's CSV: BOM, `;` separator, decimal commas with `.` thousands, DD.MM.YYYY dates. */
export const CSV_EU_OCTOBER = [
  '\uFEFFBuchungstag;Verwendungszweck;Betrag;Währung',
  '01.10.2026;"Miete Oktober; Wohnung 3";-1.250,00;EUR',
  '02.10.2026;Supermarkt Frisch;-23,45;EUR',
  '03.10.2026;Gehalt ACME GmbH;3.100,10;EUR',
  '',
].join('\r\n');

/** The next export of the same account: overlaps the first on two rows and adds one. */
export const CSV_EU_OVERLAP = [
  '\uFEFFBuchungstag;Verwendungszweck;Betrag;Währung',
  '02.10.2026;Supermarkt Frisch;-23,45;EUR',
  '03.10.2026;Gehalt ACME GmbH;3.100,10;EUR',
  '05.10.2026;Bäckerei Korn;-4,80;EUR',
  '',
].join('\r\n');

export const EU_MAPPING = {
  date: 'Buchungstag',
  description: 'Verwendungszweck',
  amount: 'Betrag',
  currency: 'Währung',
  dateFormat: 'DD.MM.YYYY',
  decimal: ',',
} as const;

/** A tab-separated export with debit and credit columns and a quoted field holding a tab and a line break. */
export const TSV_DEBIT_CREDIT = [
  'Date\tDetails\tDebit\tCredit',
  '2026-10-04\t"Office ""Supplies""\tand more\nsecond line"\t85.20\t',
  '2026-10-06\tRefund from Vendor\t\t10.05',
  '',
].join('\n');
