"""docs/deployment.md, run as written: Debian's nginx with the guide's site in front of `orders serve`
started with the guide's systemd `ExecStart` and `Environment`, only the host name, ports,
certificate and key paths replaced. Every surface is reached through the proxy over TLS: a
merchant's PUT, a device's GET, a customer page, the OAuth metadata, the consent sheet in Chromium
with `Secure` cookies and the code exchanged for data, the console from the operator's address
and not from another; the client addresses nginx forwards count for the rate limits; /health and
/metrics stay inside; and the service warns about nothing."""

import http.client
import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By

import client as oauth
from client import OAuthClient
from conftest import Pages, chrome
from deployment import BACKEND, CHECKING, ORDERS, Deployment

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDE = os.path.join(ROOT, "docs", "deployment.md")
ARCHIVE = os.path.join(ROOT, "TestArchives", "valid", "basic.order")
TEST_ROOT = os.path.join(ROOT, "TestArchives", "pki", "root.pem")
ORDER_TYPE = "order.com.example.shop"
ORDER_ID = "ORDER-123"
AUTHENTICATION_TOKEN = "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b"
# Debian puts it in /usr/sbin, which a user's PATH may not hold.
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def fenced(language):
    """The first block of the guide fenced as `language`."""
    text = open(GUIDE).read()
    match = re.search(r"^```" + language + r"\n(.*?)^```", text, re.S | re.M)
    assert match, f"docs/deployment.md has no ```{language} block"
    return match.group(1)


def replaced(text, old, new):
    """`text` with `old` replaced; the guide must still say `old`, or the test would run
    something else than what it shows."""
    assert old in text, f"docs/deployment.md no longer says {old!r}"
    return text.replace(old, new)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_listening(port, process, what):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{what} exited {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{what} does not listen on {port} within 30 s")


def start_serve(arguments, environment, folder, cwd=None):
    """`orders serve` started as `arguments` say; waits for its `listening on` line. The process,
    its port and its standard error's file."""
    log = open(os.path.join(folder, "serve.err"), "w+")
    out = open(os.path.join(folder, "serve.out"), "w+")
    process = subprocess.Popen(arguments, stdout=out, stderr=log, env=environment, cwd=cwd)
    deadline = time.monotonic() + 60
    while True:
        out.seek(0)
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", out.readline())
        if match:
            return process, int(match.group(1)), log
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"orders serve did not start: {open(log.name).read()}")
        time.sleep(0.05)


def start_nginx(folder, upstream, tls_port, http_port, certificate, key):
    """Debian's nginx with the guide's site, inside the http block Debian's nginx.conf gives it, in
    front of `orders serve` on `upstream`; only ports, host name, certificate and key replaced."""
    site = fenced("nginx")
    site = replaced(site, "server 127.0.0.1:8080;", f"server 127.0.0.1:{upstream};")
    site = replaced(site, "listen 80;", f"listen 127.0.0.1:{http_port};")
    site = replaced(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{tls_port} ssl http2;")
    site = replaced(site, "wallet.example.com", "localhost")
    site = replaced(site, "/etc/ssl/orders/fullchain.pem", certificate)
    site = replaced(site, "/etc/ssl/orders/privkey.pem", key)
    with open(os.path.join(folder, "orders.conf"), "w") as file:
        file.write(site)
    temporary = "".join(f"{kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    with open(os.path.join(folder, "nginx.conf"), "w") as file:
        file.write(("user root;\n" if os.geteuid() == 0 else "")
                   + f"worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
                   + "events { worker_connections 256; }\n"
                   + f"http {{\naccess_log {folder}/access.log;\n{temporary}"
                   + f"include {folder}/orders.conf;\n}}\n")
    nginx = subprocess.Popen([NGINX, "-p", folder, "-e", f"{folder}/error.log", "-c", f"{folder}/nginx.conf", "-g",
                              "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_listening(tls_port, nginx, "nginx")
    return nginx


class Proxied:
    """The guide's deployment on this machine: `orders serve` as the unit starts it, nginx in
    front with the guide's site, a self-signed certificate for localhost."""

    def __init__(self):
        if not os.access(NGINX, os.X_OK):
            pytest.fail("nginx is not installed (Scripts/setup.sh installs it)")
        self.deployment = Deployment(instances=0)
        self.folder = tempfile.mkdtemp(prefix="orders-deployment-")
        self.certificate = os.path.join(self.folder, "fullchain.pem")
        key = os.path.join(self.folder, "privkey.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", key, "-out", self.certificate, "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True)
        p8 = os.path.join(self.folder, "AuthKey_ABC123DEFG.p8")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
                       check=True, capture_output=True)
        self.tls_port, self.http_port = free_port(), free_port()
        self.origin = f"https://localhost:{self.tls_port}"

        # The unit: ExecStart and Environment, ORDERS_DATABASE (or, on SQLite, ORDERS_STORE) as
        # its EnvironmentFile would give it.
        unit = fenced("ini")
        exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1)
        arguments = shlex.split(exec_start)
        assert arguments[:2] == ["/usr/local/bin/orders", "serve"], arguments
        arguments = [ORDERS] + arguments[1:]
        replacements = {"--port": "0", "--public-url": self.origin, "--push-key-p8": p8}
        for option, value in replacements.items():
            assert option in arguments, f"the unit's ExecStart has no {option}"
            arguments[arguments.index(option) + 1] = value
        # The test archives are signed by the test PKI, not Apple's.
        arguments += ["--trust-root", TEST_ROOT]
        environment = {key: value for key, value in os.environ.items() if not key.startswith("ORDERS_")}
        for line in re.findall(r"^Environment=(.*)$", unit, re.M):
            name, value = line.split("=", 1)
            environment[name] = value
        location = self.deployment.location
        environment["ORDERS_DATABASE" if location[0] == "--database" else "ORDERS_STORE"] = location[1]
        self.serve, self.upstream, self.serve_log = start_serve(arguments, environment, self.folder)
        self.nginx = start_nginx(self.folder, self.upstream, self.tls_port, self.http_port, self.certificate, key)
        self.context = ssl.create_default_context(cafile=self.certificate)
        oauth.trust(self.certificate)

    def request(self, method, path, body=None, headers=None, source="127.0.0.1", tls=True):
        """One request through nginx from `source` (a loopback address): status, headers, body."""
        if tls:
            connection = http.client.HTTPSConnection("localhost", self.tls_port, context=self.context, timeout=30,
                                                     source_address=(source, 0))
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=30, source_address=(source, 0))
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def direct(self, path):
        """A request to `orders serve` itself, as the machine's own checks make it."""
        connection = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=30)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()

    def stop(self):
        self.nginx.terminate()
        self.nginx.wait(timeout=30)
        self.serve.terminate()
        self.serve.wait(timeout=30)
        self.deployment.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def proxied():
    deployment = Proxied()
    yield deployment
    deployment.stop()


@pytest.fixture(scope="module")
def merchant(proxied):
    """The merchant's backend: an API key, and the test archive uploaded through the proxy."""
    key = proxied.deployment.orders(["keys", "create", "--order-type", ORDER_TYPE, "--name", "shop"]).stdout.strip()
    with open(ARCHIVE, "rb") as file:
        status, _, body = proxied.request("PUT", "/api/v1/orders", body=file.read(), headers={
            "Authorization": "Bearer " + key, "Content-Type": "application/vnd.apple.finance.order"})
    assert status == 201, body
    return key, json.loads(body)


def test_plain_http_is_sent_to_https(proxied):
    status, headers, _ = proxied.request("GET", "/wallet/v1/orders", tls=False)
    assert status == 301
    assert re.fullmatch(r"https://[^/:]+/wallet/v1/orders", headers["location"]), headers["location"]


def test_a_merchant_uploads_and_a_device_fetches_through_the_proxy(proxied, merchant):
    key, answer = merchant
    assert answer["customerPage"].startswith("/orders/")
    status, _, body = proxied.request("GET", f"/api/v1/orders/{ORDER_TYPE}/{ORDER_ID}",
                                      headers={"Authorization": "Bearer " + key})
    assert status == 200, body
    status, headers, body = proxied.request("GET", f"/wallet/v1/orders/{ORDER_TYPE}/{ORDER_ID}",
                                            headers={"Authorization": "AppleOrder " + AUTHENTICATION_TOKEN})
    assert status == 200
    assert headers["content-type"] == "application/vnd.apple.finance.order"
    with open(ARCHIVE, "rb") as file:
        assert body == file.read()
    assert "max-age" in headers["strict-transport-security"]
    status, _, body = proxied.request("GET", "/api/v1/openapi.json")
    assert status == 200 and json.loads(body)["openapi"].startswith("3.")


def test_a_customer_page_opens_through_the_proxy(proxied, merchant):
    _, answer = merchant
    status, headers, body = proxied.request("GET", answer["customerPage"])
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    assert b"ORDER-123" in body or b"Order" in body


def test_the_oauth_metadata_names_the_public_origin(proxied):
    status, _, body = proxied.request("GET", "/.well-known/oauth-authorization-server")
    assert status == 200
    metadata = json.loads(body)
    assert metadata["issuer"] == proxied.origin
    assert metadata["token_endpoint"] == proxied.origin + "/finance/token"


def test_health_and_metrics_stay_inside(proxied):
    for path in ("/health", "/metrics", "/"):
        status, _, _ = proxied.request("GET", path)
        assert status == 404, path
    assert proxied.direct("/health")[0] == 200
    assert proxied.direct("/metrics")[0] == 200


def test_a_path_spelled_otherwise_never_reaches_a_route(proxied):
    """Issue 52: a trailing, doubled or dot segment is not the route's path — neither nginx's
    locations nor the service's routes answer it (docs/hardening.md, "One spelling per path")."""
    for path in ("/metrics/", "/metrics//", "/health/", "/console/", "/console//orders", "/console/./orders",
                 "/api//v1/orders", "/wallet//v1/orders/order.com.example.shop/ORDER-123"):
        status, _, _ = proxied.request("GET", path)
        assert status == 404, (path, status)
    for path in ("/metrics/", "/console/", "/console//orders"):
        assert proxied.direct(path)[0] == 404, path


def test_the_console_answers_the_operators_address_only(proxied):
    status, _, _ = proxied.request("GET", "/console", source="127.0.0.2")
    assert status == 403
    status, headers, _ = proxied.request("GET", "/console")
    assert status in (200, 302, 303), status


def test_an_archive_reaches_the_service_through_every_upload_path(proxied):
    """The proxy lets archives through where the service takes them (10 MiB): the merchant API and
    the console's upload form; any other body stays small (64 KiB)."""
    archive = b"\0" * (1 << 20)
    for path in ("/api/v1/orders", "/console/upload"):
        status, _, _ = proxied.request("POST" if path.startswith("/console") else "PUT", path, body=archive,
                                       headers={"Content-Type": "application/octet-stream"})
        assert status != 413, path
    status, _, _ = proxied.request("POST", "/finance/token", body=b"a" * (100 << 10),
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 413


def test_rate_limits_count_the_address_nginx_forwards(proxied):
    """Device logs: 5 at once per client address. Six from one address through the proxy: the
    sixth is limited; then one from another address is not, which it would be if the service
    counted nginx's own address."""
    def limited():
        text = proxied.direct("/metrics")[1]
        return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith("orders_rate_limited_total") and "log" in line)

    body = json.dumps({"logs": ["deployment test"]}).encode()
    headers = {"Content-Type": "application/json"}
    before = limited()
    for _ in range(6):
        assert proxied.request("POST", "/wallet/v1/log", body=body, headers=headers, source="127.0.0.3")[0] == 200
    assert limited() == before + 1
    assert proxied.request("POST", "/wallet/v1/log", body=body, headers=headers, source="127.0.0.4")[0] == 200
    assert limited() == before + 1


def test_the_owner_consents_in_a_browser_with_secure_cookies_and_the_client_reads_data(proxied, callback):
    client_id, secret = proxied.deployment.register_client("Budget Planner", callback.origin + "/deployed/callback")
    client = OAuthClient(proxied.origin, client_id, secret, callback.origin + "/deployed/callback")
    driver = chrome(extra_arguments=("--ignore-certificate-errors",))
    try:
        pages = Pages(driver, proxied.deployment)
        pages.open(client.authorization_url())
        assert pages.heading() == "Sign In"
        pages.sign_in()
        assert "Would Like to Access Your Financial Data" in pages.heading()
        session = pages.session_cookie()
        assert session is not None and session["name"] == "__Host-orders_session"
        assert session["secure"] and session["httpOnly"]
        pages.click_button("Select Accounts")
        driver.find_element(By.ID, f"account-{CHECKING}").click()
        pages.click_button("Share")
        answer = pages.callback_parameters(client.redirect_uri)
        assert answer["iss"] == proxied.origin and answer["state"] == client.state
        tokens = client.exchange(answer["code"])
        assert tokens.status == 200, tokens.body
        accounts = client.get("/finance/v1/accounts", tokens.json()["access_token"])
        assert accounts.status == 200
        assert [account["id"] for account in accounts.json()["accounts"]] == [CHECKING]
        # The console, signed in by the same session, from the operator's address.
        pages.open(proxied.origin + "/console")
        assert pages.heading() == "Orders"
    finally:
        driver.quit()


def test_the_service_warned_about_nothing(proxied, merchant):
    proxied.request("GET", "/wallet/v1/orders", headers={"X-Forwarded-For": "198.51.100.9"})
    log = open(proxied.serve_log.name).read()
    assert " warning " not in log, log[-3000:]
    assert "pushes will not be sent" not in log
