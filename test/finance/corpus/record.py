"""Records what two maintained open-source readers make of the corpus, as the expected answers of
test/finance/corpus.test.ts. Not run by the tests: rerun it only when a file is added (see README.md).

    python3 -m venv /tmp/corpus-venv && /tmp/corpus-venv/bin/pip install ofxparse==0.21 csv2ofx==0.34.2
    /tmp/corpus-venv/bin/python test/finance/corpus/record.py

OFX files are read with ofxparse. CSV files are converted to OFX with csv2ofx and its own mapping for
that bank (the `csv2ofx` entry of each mapping file), and the transactions csv2ofx wrote are recorded.
"""
import decimal, json, pathlib, re, subprocess, sys, tempfile
from ofxparse import OfxParser

HERE = pathlib.Path(__file__).resolve().parent


def ofx_accounts(path):
    with open(path, 'rb') as f:
        ofx = OfxParser.parse(f)
    out = []
    for a in ofx.accounts:
        st = a.statement
        txs = st.transactions
        out.append({
            'accountId': a.account_id,
            'currency': (getattr(st, 'currency', '') or '').upper(),
            'transactions': [{'date': t.date.strftime('%Y-%m-%d'), 'amount': str(t.amount), 'bankId': t.id or None} for t in txs],
            'total': str(sum((t.amount for t in txs), decimal.Decimal(0))),
        })
    return out


def csv_transactions(csv_path, spec):
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / 'out.ofx'
        subprocess.run([str(pathlib.Path(sys.executable).parent / 'csv2ofx'), '-o', '-e', '20251231', *spec['args'], str(csv_path), str(out)], check=True)
        text = out.read_text()
    currency = re.search(r'<CURDEF>([A-Z]*)', text).group(1)
    rows = []
    for trn in re.findall(r'<STMTTRN>(.*?)</STMTTRN>', text, re.S):
        posted = re.search(r'<DTPOSTED>(\d{8})', trn).group(1)
        amount = decimal.Decimal(re.search(r'<TRNAMT>([^<]*)', trn).group(1))
        rows.append({'date': f'{posted[:4]}-{posted[4:6]}-{posted[6:]}', 'amount': str(amount)})
    return {'currency': currency, 'transactions': rows, 'total': str(sum((decimal.Decimal(r['amount']) for r in rows), decimal.Decimal(0)))}


for path in sorted((HERE / 'ofx').glob('*.ofx')):
    try:
        expected = {'reader': 'ofxparse 0.21', 'accounts': ofx_accounts(path)}
    except Exception as e:  # a file the reader refuses is recorded as refused, with its reason
        expected = {'reader': 'ofxparse 0.21', 'refused': f'{type(e).__name__}: {e}'.strip()}
    path.with_suffix('.expected.json').write_text(json.dumps(expected, indent=2) + '\n')

for mapping_path in sorted((HERE / 'csv').glob('*.mapping.json')):
    spec = json.loads(mapping_path.read_text())
    csv_path = mapping_path.with_name(mapping_path.name.replace('.mapping.json', '.csv'))
    expected = {'reader': 'csv2ofx 0.34.2', **csv_transactions(csv_path, spec['csv2ofx'])}
    mapping_path.with_name(mapping_path.name.replace('.mapping.json', '.expected.json')).write_text(json.dumps(expected, indent=2) + '\n')
