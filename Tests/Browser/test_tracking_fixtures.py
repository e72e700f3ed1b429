"""The tracking fixtures' EasyPost signatures, checked by EasyPost's own client library (issue 55):
`easypost.util.validate_webhook` accepts each body under the fixture secret with the signature
Tests/Fixtures/tracking/signatures.tsv holds — the one the Swift scheme (`TrackingSignature`) must
reproduce byte for byte — and refuses the body changed by one byte or under another secret. A
client written elsewhere agrees with our reading of the scheme (NFKD secret, hex, the
`hmac-sha256-hex=` prefix)."""

import csv
import pathlib

import pytest
from easypost.errors import SignatureVerificationError
from easypost.util import validate_webhook

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "tracking"
SECRET = "fixture-secret-1"


def easypost_rows():
    with open(FIXTURES / "signatures.tsv", newline="") as table:
        rows = [row for row in csv.DictReader(table, delimiter="\t") if row["file"].startswith("easypost")]
    assert len(rows) == 2, rows
    return rows


@pytest.mark.parametrize("row", easypost_rows(), ids=lambda row: row["file"])
def test_easypost_validate_webhook_accepts_the_fixture_signatures(row):
    body = (FIXTURES / row["file"]).read_bytes()
    assert row["header"] == "X-Hmac-Signature"
    event = validate_webhook(body, {"X-Hmac-Signature": row["value"]}, SECRET)
    assert event["description"] == "tracker.updated"
    assert event["result"]["object"] == "Tracker"
    # The secret as EasyPost's clients normalize it: a compatibility ligature reads as "fi".
    validate_webhook(body, {"X-Hmac-Signature": row["value"]}, "\ufb01xture-secret-1")


@pytest.mark.parametrize("row", easypost_rows(), ids=lambda row: row["file"])
def test_easypost_validate_webhook_refuses_a_changed_body_or_another_secret(row):
    body = bytearray((FIXTURES / row["file"]).read_bytes())
    with pytest.raises(SignatureVerificationError):
        validate_webhook(bytes(body), {"X-Hmac-Signature": row["value"]}, "another-secret")
    body[40] ^= 0x01
    with pytest.raises(SignatureVerificationError):
        validate_webhook(bytes(body), {"X-Hmac-Signature": row["value"]}, SECRET)
