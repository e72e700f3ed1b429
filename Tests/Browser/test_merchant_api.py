"""Authoring through the merchant API as a merchant's backend — and a thief holding its API key —
sends it, with the clients they use: curl and Python's requests, against the real `orders serve`
(SQLite, and two instances on one PostgreSQL database). Issue 52: the key cannot send devices to
another host; a retried multipart upload is answered again; files the service writes are refused;
writers of one order at once all succeed."""

import concurrent.futures
import json
import os
import shutil
import subprocess
import tempfile
import uuid

import pytest
import requests

from deployment import Deployment

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKI = os.path.join(ROOT, "TestArchives", "pki")
SOURCES = os.path.join(ROOT, "TestArchives", "sources", "small")
ORDER_TYPE = "order.com.example.shop"
PUBLIC_URL = "https://wallet.example.test"
SERVICE_URL = PUBLIC_URL + "/"


@pytest.fixture(scope="module")
def service():
    deployment = Deployment(serve_arguments=["--trust-root", os.path.join(PKI, "root.pem"), "--public-url", PUBLIC_URL])
    deployment.orders(["signing", "add", "--order-type", ORDER_TYPE, "--certificate", os.path.join(PKI, "order.pem"),
                       "--key", os.path.join(PKI, "order.key"), "--intermediate", os.path.join(PKI, "wwdr.pem"),
                       "--trust-root", os.path.join(PKI, "root.pem")])
    key = deployment.orders(["keys", "create", "--order-type", ORDER_TYPE, "--name", "shop"]).stdout.strip()
    folder = tempfile.mkdtemp(prefix="orders-merchant-")
    with open(os.path.join(SOURCES, "order.json")) as file:
        order = json.load(file)
    # The service owns these; the path names the order.
    for field in ("webServiceURL", "authenticationToken", "createdAt", "updatedAt", "orderIdentifier"):
        order.pop(field, None)
    with open(os.path.join(folder, "order.json"), "w") as file:
        json.dump(order, file)
    yield deployment, key, folder
    shutil.rmtree(folder, ignore_errors=True)
    deployment.stop()


def content_url(deployment, order_id):
    return f"{deployment.urls[-1]}/api/v1/orders/{ORDER_TYPE}/{order_id}/content"


def curl_form(url, key, folder, idempotency_key, parts):
    """`curl -F name=@file …`, as docs/authoring.md shows it: status, headers and body."""
    headers_file = os.path.join(folder, f"headers-{uuid.uuid4().hex}")
    command = ["curl", "-sS", "-X", "PUT", url, "-H", f"Authorization: Bearer {key}", "-H",
               f"Idempotency-Key: {idempotency_key}", "-D", headers_file]
    for name, path in parts:
        command += ["-F", f"{name}=@{path}"]
    body = subprocess.run(command, capture_output=True, check=True, timeout=60).stdout
    with open(headers_file) as file:
        lines = file.read().splitlines()
    status = int(lines[0].split()[1])
    headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in lines[1:] if ":" in line}
    return status, headers, body


def package_parts(folder):
    return [("order.json", os.path.join(folder, "order.json")), ("logo.png", os.path.join(SOURCES, "logo.png")),
            ("item.png", os.path.join(SOURCES, "item.png"))]


def history(deployment, order_id):
    """The order's versions as `orders history --json` prints them; none when it is not stored."""
    result = deployment.orders(["history", "--type", ORDER_TYPE, "--id", order_id, "--json"], check=False)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.splitlines()


def test_curl_retries_a_multipart_upload_and_gets_the_first_answer(service):
    deployment, key, folder = service
    url = content_url(deployment, "CURL-1")
    idempotency_key = str(uuid.uuid4())
    first = curl_form(url, key, folder, idempotency_key, package_parts(folder))
    assert first[0] == 201, first[2]
    retry = curl_form(url, key, folder, idempotency_key, package_parts(folder))
    assert retry[0] == 201, retry[2]
    assert retry[1].get("idempotent-replayed") == "true"
    assert retry[2] == first[2], "the first answer, byte for byte"
    assert len(history(deployment, "CURL-1")) == 1, "one version"
    answer = json.loads(first[2])
    assert answer["orderDetails"]["webServiceURL"] == SERVICE_URL


def test_requests_retries_a_multipart_upload_and_gets_the_first_answer(service):
    deployment, key, folder = service
    url = content_url(deployment, "REQUESTS-1")
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": str(uuid.uuid4())}

    def send():
        files = [(name, (os.path.basename(path), open(path, "rb"))) for name, path in package_parts(folder)]
        try:
            return requests.put(url, headers=headers, files=files, timeout=60)
        finally:
            for _, (_, handle) in files:
                handle.close()

    first, retry = send(), send()
    assert first.status_code == 201, first.text
    assert first.request.headers["Content-Type"] != retry.request.headers["Content-Type"], "a new boundary each time"
    assert retry.status_code == 201 and retry.headers.get("Idempotent-Replayed") == "true", retry.text
    assert retry.content == first.content
    assert len(history(deployment, "REQUESTS-1")) == 1


def test_a_leaked_key_cannot_send_devices_to_another_host(service):
    deployment, key, folder = service
    url = content_url(deployment, "CURL-1")
    before = history(deployment, "CURL-1")
    merchant = {"Authorization": f"Bearer {key}"}
    for body, content_type in (
        (json.dumps({"webServiceURL": "https://evil.example/steal/"}), "application/merge-patch+json"),
        (json.dumps({"webServiceURL": "https://evil.example/steal/", "authenticationToken": "f" * 32}),
         "application/json"),
        (json.dumps({"webServiceURL": SERVICE_URL.replace("example.test", "example.test.evil.example")}),
         "application/merge-patch+json"),
    ):
        method = requests.patch if content_type.startswith("application/merge") else requests.put
        answer = method(url, headers={**merchant, "Content-Type": content_type}, data=body, timeout=60)
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert error["code"] == "authoring.webServiceURLNotAllowed" and error["path"] == "webServiceURL"
    with open(os.path.join(folder, "order.json")) as file:
        order = json.load(file)
    order["webServiceURL"] = "https://evil.example/steal/"
    evil = os.path.join(folder, "evil-order.json")
    with open(evil, "w") as file:
        json.dump(order, file)
    status, _, body = curl_form(url, key, folder, str(uuid.uuid4()),
                                [("order.json", evil)] + package_parts(folder)[1:])
    assert status == 422 and json.loads(body)["error"]["code"] == "authoring.webServiceURLNotAllowed", body
    assert history(deployment, "CURL-1") == before, "nothing signed, nothing saved"
    current = json.loads(history(deployment, "CURL-1")[-1])
    assert current.get("webServiceURL", SERVICE_URL) == SERVICE_URL


@pytest.mark.parametrize("name", ["manifest.json", "signature", "SIGNATURE"])
def test_parts_named_as_files_the_service_writes_are_refused(service, name):
    deployment, key, folder = service
    fake = os.path.join(folder, "fake")
    with open(fake, "w") as file:
        file.write("{}")
    status, _, body = curl_form(content_url(deployment, "RESERVED-1"), key, folder, str(uuid.uuid4()),
                                package_parts(folder) + [(name, fake)])
    assert status == 400, body
    error = json.loads(body)["error"]
    assert error["code"] == "authoring.reservedFileName" and error["path"] == name
    assert history(deployment, "RESERVED-1") == []


def test_thirty_writers_of_one_order_at_once_all_succeed(service):
    deployment, key, folder = service
    url = content_url(deployment, "CURL-1")
    before = len(history(deployment, "CURL-1"))

    def patch(number):
        # Every instance of the deployment takes writers: on PostgreSQL, two on one database.
        base = deployment.urls[number % len(deployment.urls)]
        return requests.patch(f"{base}/api/v1/orders/{ORDER_TYPE}/CURL-1/content", timeout=120,
                              headers={"Authorization": f"Bearer {key}", "Content-Type": "application/merge-patch+json"},
                              data=json.dumps({"orderNumber": f"writer-{number}"}))

    with concurrent.futures.ThreadPoolExecutor(max_workers=30) as pool:
        answers = list(pool.map(patch, range(30)))
    statuses = [answer.status_code for answer in answers]
    # Writers on one instance take turns; across instances a writer overtaken 4 times is told
    # when to come back.
    refused = [answer for answer in answers if answer.status_code != 200]
    assert all(answer.status_code == 409 and answer.headers.get("Retry-After") == "1" for answer in refused), statuses
    if len(deployment.urls) == 1:
        assert refused == [], statuses
    assert len(history(deployment, "CURL-1")) == before + statuses.count(200)
    stamps = [json.loads(line)["updatedAt"] for line in history(deployment, "CURL-1")]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps), "one width, strictly later: text order is time order"


def documented_block(language, after):
    """The first ```language block after the heading `after` in docs/authoring.md."""
    with open(os.path.join(ROOT, "docs", "authoring.md")) as file:
        text = file.read()
    section = text[text.index(after):]
    start = section.index(f"```{language}\n") + len(f"```{language}\n")
    return section[start:section.index("```", start)]


def test_the_documented_apple_pay_js_hands_the_payment_sheet_complete_order_details(service, browser):
    """docs/authoring.md's Apple Pay JS block, run in Chromium with the service's real answer: what it
    passes to completePayment is the answer's orderDetails, every member a string (issue 53, item 6)."""
    deployment, key, folder = service
    files = [(name, (name, open(path, "rb").read())) for name, path in package_parts(folder)]
    answer = requests.put(content_url(deployment, "APPLE-PAY-JS"), files=files, timeout=60,
                          headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 201, answer.text
    block = documented_block("js", "### `orderDetails` for Apple Pay")
    browser.get("about:blank")
    completed = browser.execute_async_script(
        """
        const [answer, block, done] = arguments;
        window.ApplePaySession = { STATUS_SUCCESS: 0, STATUS_FAILURE: 1 };
        window.yourBackend = { chargeAndAuthor: async (payment) => answer };
        window.session = { completePayment: (result) => done(result) };
        (0, eval)(block);  // at global scope, where the block finds session and yourBackend
        window.session.onpaymentauthorized({ payment: { token: {} } });
        """, answer.json(), block)
    details = completed["orderDetails"]
    assert completed["status"] == 0
    assert details == answer.json()["orderDetails"]
    assert set(details) == {"orderTypeIdentifier", "orderIdentifier", "webServiceURL", "authenticationToken"}
    assert all(isinstance(value, str) and value for value in details.values())
    assert details["webServiceURL"] == SERVICE_URL
