"""The operator console in headless Chromium, against the real `orders serve`: sign in, find an
order, open the diff between two of its versions, see who uploaded each and its registered
devices (never a whole push token), upload an invalid archive and see each error beside the path
it names, create and revoke an API key, the push outbox, change an order's status (previewed, then
signed by the service) — and a forged post refused. axe-core on
every page, a 375 px screen, screenshots."""

import json
import os
import subprocess
import urllib.error
import urllib.parse
import urllib.request
import zipfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from deployment import ORDERS, Deployment
from test_orders import ARCHIVES, TEST_ROOT, folder, packed  # noqa: F401 (folder: a fixture)

ORDER_TYPE = "order.com.example.shop"
ORDER_ID = "CONSOLE-1"
AUTHENTICATION_TOKEN = "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b"
PUSH_TOKEN = "7b1e2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
INVALID = os.path.join(ARCHIVES, "invalid", "order-every-problem.order")


def request(method, url, body=None, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers or {}),
                                    timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def version(folder, name, updated_at, status, merchant):
    def edit(order):
        order["orderIdentifier"] = ORDER_ID
        order["updatedAt"] = updated_at
        order["status"] = status
        order["merchant"]["displayName"] = merchant
    return packed(folder, name, edit)


@pytest.fixture(scope="module")
def deployment():
    """Servers that trust the test PKI: the merchant API verifies what it is sent."""
    deployment = Deployment(serve_arguments=[
        "--trust-root", TEST_ROOT,
        # The test orders name the shop's own web service: the console's changes keep it.
        "--allow-web-service-url", f"{ORDER_TYPE}=https://shop.example.com/wallet/"])
    yield deployment
    deployment.stop()


@pytest.fixture(scope="module")
def console(deployment, folder):
    """An order stored twice — once by `orders add`, then by a merchant backend's key — with a
    device registered for it, and the outbox holding a push waiting and one failed for good."""
    base = deployment.urls[-1]
    first = version(folder, "console-v1", "2026-01-15T09:30:00Z", "open", "Example Shop")
    second = version(folder, "console-v2", "2026-02-01T08:00:00Z", "completed", "Example Shop & Café")
    deployment.orders(["add", "--yes", "--trust-root", TEST_ROOT, first])
    created = json.loads(deployment.orders(["keys", "create", "--order-type", ORDER_TYPE, "--name", "Shop backend",
                                            "--json"]).stdout)
    status, _ = request("POST", f"{base}/v1/devices/phone-1/registrations/{ORDER_TYPE}/{ORDER_ID}",
                        json.dumps({"pushToken": PUSH_TOKEN}).encode(),
                        {"Authorization": f"AppleOrder {AUTHENTICATION_TOKEN}", "Content-Type": "application/json"})
    assert status == 201
    with open(second, "rb") as file:
        status, body = request("PUT", f"{base}/api/v1/orders", file.read(),
                               {"Authorization": f"Bearer {created['token']}",
                                "Content-Type": "application/vnd.apple.finance.order"})
    assert status == 200, body
    # Below the service: a push waiting for a retry and one that failed for good, as APNs answers
    # them (the drainer and the outbox's own writes are tested in Swift).
    later = 4102444800000000  # 2100-01-01, never due during the test
    deployment.query(
        "INSERT INTO pushOutbox (pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, attempts, "
        f"nextAttemptAt, lastError) VALUES ('{PUSH_TOKEN}', '{ORDER_TYPE}', '{ORDER_ID}', 'phone-2', 1767000000000000, 3, "
        f"{later}, '429 TooManyRequests') RETURNING 1")
    deployment.query(
        "INSERT INTO pushFailures (orderTypeIdentifier, orderIdentifier, deviceIdentifier, pushTokenSuffix, enqueuedAt, "
        f"failedAt, attempts, reason) VALUES ('{ORDER_TYPE}', '{ORDER_ID}', 'phone-3', '{PUSH_TOKEN[-8:]}', "
        "1767000000000000, 1767000001000000, 1, 'the device token is gone: 410 Unregistered') RETURNING 1")
    return base


def keys(deployment):
    """`orders keys list --json`: one JSON object per line."""
    return [json.loads(line) for line in deployment.orders(["keys", "list", "--json"]).stdout.splitlines()]


def check(pages, name, screenshot=None, status=None):
    """Every console page: no console error (but the page's own `status`, which Chromium logs),
    no serious axe violation, fits a 375 px screen."""
    errors = [entry["message"] for entry in pages.console_errors()]
    assert [message for message in errors if not (status and f"status of {status}" in message)] == []
    pages.check_accessible(name)
    pages.check_fits(name, width=375)
    if screenshot:
        pages.screenshot(screenshot)


def signed_in(pages, base, path):
    pages.open(base + path)
    if pages.driver.find_elements(By.ID, "password"):
        pages.sign_in()
        pages.wait_loaded()


def test_sign_in_find_an_order_and_see_its_versions_and_devices(pages, console):
    pages.open(console + "/console")
    assert "/finance/sign-in" in pages.driver.current_url
    pages.sign_in()
    pages.wait_for_url(console + "/console/orders")
    assert pages.heading() == "Orders"
    search = pages.driver.find_element(By.ID, "q")
    search.send_keys("console")
    pages.click_button("Search")
    rows = pages.driver.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [row.find_element(By.TAG_NAME, "a").text for row in rows] == [ORDER_ID]
    check(pages, "console orders", "console-orders")
    pages.navigating(rows[0].find_element(By.TAG_NAME, "a").click)
    assert pages.heading().startswith(ORDER_ID)
    versions = pages.driver.find_elements(By.CSS_SELECTOR, "[aria-label=Versions] tbody tr")
    assert len(versions) == 2
    uploaders = [row.find_elements(By.TAG_NAME, "td")[2].text for row in versions]
    assert uploaders[0].startswith("Shop backend (") and uploaders[1] == "not through the API"
    devices = pages.driver.find_elements(By.CSS_SELECTOR, "[aria-label=Devices] tbody tr")
    assert [row.find_elements(By.TAG_NAME, "td")[1].text for row in devices] == ["…" + PUSH_TOKEN[-8:]]
    assert PUSH_TOKEN not in pages.driver.page_source
    check(pages, "console order", "console-order")


def test_the_diff_between_two_versions_names_each_changed_field(pages, console):
    signed_in(pages, console, f"/console/orders/{ORDER_TYPE}/{ORDER_ID}")
    Select(pages.driver.find_element(By.ID, "from")).select_by_index(1)
    Select(pages.driver.find_element(By.ID, "to")).select_by_index(0)
    pages.click_button("Show Changes")
    assert pages.heading() == f"Changes in {ORDER_ID}"
    changed = {}
    for row in pages.driver.find_elements(By.CSS_SELECTOR, "tbody tr"):
        cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        changed[cells[0]] = cells[1:]
    assert changed["updatedAt"] == ["changed", '"2026-01-15T09:30:00Z"', '"2026-02-01T08:00:00Z"']
    assert changed["status"] == ["changed", '"open"', '"completed"']
    assert changed["merchant.displayName"] == ["changed", '"Example Shop"', '"Example Shop & Café"']
    check(pages, "console diff", "console-diff")


def test_an_invalid_upload_shows_each_error_beside_its_path(pages, console):
    signed_in(pages, console, "/console/upload")
    pages.driver.find_element(By.ID, "archive").send_keys(INVALID)
    pages.click_button("Verify")
    verified = subprocess.run([ORDERS, "verify", "--json", "--trust-root", TEST_ROOT, INVALID], capture_output=True,
                              text=True, timeout=120)
    errors = json.loads(verified.stdout)["errors"]
    rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in pages.driver.find_elements(By.CSS_SELECTOR, "tr.error")]
    assert len(rows) == len(errors) > 1
    for error in errors:
        assert [error.get("path") or "the archive", error["message"], error["code"]] in rows, error
    assert "not valid" in pages.driver.find_element(By.ID, "verdict").text
    check(pages, "console upload report", "console-upload", status=422)


def test_a_key_is_shown_once_and_revoked(pages, deployment, console):
    signed_in(pages, console, "/console/keys")
    pages.driver.find_element(By.ID, "name").send_keys("Warehouse")
    pages.driver.find_element(By.ID, "types").send_keys(ORDER_TYPE)
    pages.click_button("Create Key")
    key = pages.driver.find_element(By.CSS_SELECTOR, "[aria-labelledby=created] code").text
    assert key.startswith("wok_")
    warehouse = [k for k in keys(deployment) if k["name"] == "Warehouse"]
    assert len(warehouse) == 1 and key.startswith(f"wok_{warehouse[0]['key']}_")
    check(pages, "console keys, a key created", "console-keys")
    pages.open(console + "/console/keys")
    assert key not in pages.driver.page_source
    pages.click_button_labelled("Revoke Warehouse")
    assert "The key is revoked." in pages.driver.find_element(By.CSS_SELECTOR, ".notice").text
    assert [k["revokedAt"] is not None for k in keys(deployment) if k["name"] == "Warehouse"] == [True]
    status, _ = request("GET", f"{console}/api/v1/orders/{ORDER_TYPE}/{ORDER_ID}", headers={"Authorization": f"Bearer {key}"})
    assert status == 401


def test_a_forged_post_is_refused_and_changes_nothing(pages, deployment, console):
    signed_in(pages, console, "/console/keys")
    cookie = pages.session_cookie()
    before = deployment.orders(["keys", "list", "--json"]).stdout
    form = {"Cookie": f"{cookie['name']}={cookie['value']}", "Content-Type": "application/x-www-form-urlencoded"}
    for body in (f"name=forged&types={ORDER_TYPE}", f"csrf_token=not-the-token&name=forged&types={ORDER_TYPE}"):
        status, page = request("POST", console + "/console/keys/create", body.encode(), form)
        assert status == 403 and b"This Form Has Expired" in page
    boundary = "forgedBoundary"
    upload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"a.order\"\r\n\r\nx\r\n"
              f"--{boundary}--\r\n").encode()
    status, _ = request("POST", console + "/console/upload", upload,
                        {"Cookie": form["Cookie"], "Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 403
    assert deployment.orders(["keys", "list", "--json"]).stdout == before


def test_the_push_outbox_shows_waiting_and_failed_pushes_with_their_reasons(pages, console):
    signed_in(pages, console, "/console/outbox")
    assert pages.heading() == "Push Outbox"
    waiting = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
               for row in pages.driver.find_elements(By.CSS_SELECTOR, "[aria-label='Waiting pushes'] tbody tr")]
    assert len(waiting) == 1 and waiting[0][3] == "retrying" and waiting[0][-1] == "429 TooManyRequests"
    failed = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
              for row in pages.driver.find_elements(By.CSS_SELECTOR, "[aria-label='Failed pushes'] tbody tr")]
    assert len(failed) == 1 and failed[0][-1] == "the device token is gone: 410 Unregistered"
    assert PUSH_TOKEN not in pages.driver.page_source
    check(pages, "console push outbox", "console-outbox")


def test_tracking_webhooks_signed_as_their_providers_sign_are_listed_with_what_they_did(pages, deployment, console, folder):
    """Issue 55: an EasyPost event signed as EasyPost's documentation says (checked by EasyPost's
    own `validate_webhook`) and an AfterShip one signed with Python's hmac are accepted by the
    running service; a forged one is 401; the console's Tracking page lists the webhook without
    its secret and the events waiting for an order. Their parcel is one no order names: the
    orders of this module keep their versions."""
    import base64
    import hashlib
    import hmac
    import time
    import unicodedata

    from easypost.util import validate_webhook

    secrets = {}
    paths = {}
    for provider in ("easypost", "aftership"):
        secrets[provider] = f"{provider}-console-secret-\ufb01"
        secret_file = os.path.join(folder, f"{provider}.secret")
        with open(secret_file, "w") as file:
            file.write(secrets[provider] + "\n")
        os.chmod(secret_file, 0o600)
        paths[provider] = deployment.orders(["tracking", "add", "--provider", provider, "--order-type", ORDER_TYPE,
                                             "--secret-file", secret_file]).stdout.strip()
        assert paths[provider].startswith(f"/api/v1/tracking/{provider}/trk_")
    easypost = json.dumps({"object": "Event", "id": "evt_console_1", "description": "tracker.updated",
                           "created_at": "2026-12-07T06:40:00Z",
                           "result": {"object": "Tracker", "tracking_code": "EZ1000000001", "status": "in_transit",
                                      "carrier": "USPS", "tracking_details": []}}).encode()
    key = unicodedata.normalize("NFKD", secrets["easypost"]).encode()
    signature = "hmac-sha256-hex=" + hmac.new(key, easypost, hashlib.sha256).hexdigest()
    assert validate_webhook(easypost, {"X-Hmac-Signature": signature}, secrets["easypost"])["id"] == "evt_console_1"
    status, body = request("POST", console + paths["easypost"], easypost,
                           {"Content-Type": "application/json", "X-Hmac-Signature": signature})
    assert (status, json.loads(body)["outcome"]) == (200, "unmatched"), body
    aftership = json.dumps({"event_id": "as-console-1", "event": "tracking_update", "ts": int(time.time()),
                            "msg": {"tracking_number": "AS1000000001", "slug": "ups", "tag": "InTransit",
                                    "checkpoints": []}}).encode()
    digest = base64.b64encode(hmac.new(secrets["aftership"].encode(), aftership, hashlib.sha256).digest()).decode()
    status, body = request("POST", console + paths["aftership"], aftership,
                           {"Content-Type": "application/json", "aftership-hmac-sha256": digest})
    assert (status, json.loads(body)["outcome"]) == (200, "unmatched"), body
    status, body = request("POST", console + paths["aftership"], aftership,
                           {"Content-Type": "application/json", "aftership-hmac-sha256": base64.b64encode(b"x" * 32).decode()})
    assert status == 401 and json.loads(body)["error"]["code"] == "tracking.badSignature"

    signed_in(pages, console, "/console/tracking")
    assert pages.heading() == "Tracking"
    waiting = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
               for row in pages.driver.find_elements(By.CSS_SELECTOR, "[aria-label='Events waiting for an order'] tbody tr")]
    assert sorted(row[2] for row in waiting) == ["as-console-1", "evt_console_1"]
    assert all(secret not in pages.driver.page_source for secret in secrets.values())
    check(pages, "console tracking", "console-tracking")


def test_the_order_is_changed_from_its_page_after_a_preview_and_signed_by_the_service(pages, deployment, console):
    """Issue 43: the order's status and its fulfillment's, previewed as the fields that change,
    then signed with the type's identity — a new current version, pushed; a forged post changes
    nothing. Last in this module: it adds a version (and a push) the tests above do not expect."""
    pki = os.path.dirname(TEST_ROOT)
    deployment.orders(["signing", "add", "--order-type", ORDER_TYPE, "--certificate", os.path.join(pki, "order.pem"),
                       "--key", os.path.join(pki, "order.key"), "--intermediate", os.path.join(pki, "wwdr.pem"),
                       "--trust-root", TEST_ROOT])
    path = f"/console/orders/{ORDER_TYPE}/{ORDER_ID}"
    signed_in(pages, console, path)
    cookie = pages.session_cookie()
    forged = {"Cookie": f"{cookie['name']}={cookie['value']}", "Content-Type": "application/x-www-form-urlencoded"}
    status, _ = request("POST", console + path + "/change", b'step=sign&patch={"status":"cancelled"}', forged)
    assert status == 403
    history = lambda: deployment.orders(["history", "--type", ORDER_TYPE, "--id", ORDER_ID, "--json"]).stdout.splitlines()
    before = len(history())

    Select(pages.driver.find_element(By.ID, "status")).select_by_value("cancelled")
    Select(pages.driver.find_element(By.ID, "fulfillment.0")).select_by_value("delivered")
    pages.click_button("Preview Changes")
    assert pages.heading() == f"Change {ORDER_ID}"
    rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in pages.driver.find_elements(By.CSS_SELECTOR, "[aria-label='Fields'] tbody tr")]
    assert ["status", "changed", '"completed"', '"cancelled"'] in rows, rows
    assert ["fulfillments[0].status", "changed", '"onTheWay"', '"delivered"'] in rows, rows
    assert len(history()) == before, "a preview signs nothing"
    check(pages, "console change preview", "console-change")

    # Issue 52: the confirmation carries the choices, never a patch; a patch posted beside a valid
    # form token — here redirecting devices and replacing their token — is not what gets signed.
    field = lambda name: pages.driver.find_element(By.CSS_SELECTOR, f"input[type=hidden][name='{name}']").get_attribute("value")
    assert not pages.driver.find_elements(By.CSS_SELECTOR, "input[name='patch']")
    smuggled = urllib.parse.urlencode({
        "csrf_token": field("csrf_token"), "step": "sign", "basis": field("basis"),
        "patch": json.dumps({"webServiceURL": "https://attacker.example/x/", "authenticationToken": "f" * 32}),
    }).encode()
    status, page = request("POST", console + path + "/change", smuggled, forged)
    assert status == 200 and b"Nothing to Change" in page, status
    assert len(history()) == before, "nothing signed"

    pages.click_button("Sign and Save")
    assert "Signed and saved a new version" in pages.driver.find_element(By.CSS_SELECTOR, ".notice").text
    versions = history()
    assert len(versions) == before + 1
    current = json.loads(versions[-1])
    assert current["status"] == "cancelled", current
    archive = os.path.join(deployment.folder, "console-current.order")
    deployment.orders(["export", "--type", ORDER_TYPE, "--id", ORDER_ID, "--output", archive])
    with zipfile.ZipFile(archive) as package:
        signed = json.loads(package.read("order.json"))
    assert signed["webServiceURL"] == "https://shop.example.com/wallet/", "only the chosen fields were signed"
    assert signed["authenticationToken"] == AUTHENTICATION_TOKEN
    check(pages, "console order, changed")
