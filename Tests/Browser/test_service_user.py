"""docs/deployment.md's service user, run as written (issue 53): the guide's block creates the user
`orders`, installs a PEM key, a PKCS#12 file whose passphrase comes from the unit's
EnvironmentFile, and a SoftHSM2 token that user owns; `orders serve` runs as that user with the
unit's ExecStart and Environment (its SQLite store under the state folder), behind the guide's
nginx site. Each identity, added as the guide says (as the service's user) and activated in turn,
signs: authoring answers 2xx through nginx for each."""

import json
import os
import pwd
import re
import secrets
import shlex
import shutil
import subprocess
import tempfile
import time

import pytest
import requests

from deployment import ORDERS
from test_deployment import GUIDE, fenced, free_port, replaced, start_nginx, start_serve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKI = os.path.join(ROOT, "TestArchives", "pki")
TEST_ROOT = os.path.join(PKI, "root.pem")
SOURCES = os.path.join(ROOT, "TestArchives", "sources", "small")
ORDER_TYPE = "order.com.example.shop"


def marked(marker):
    """The ```sh block after `<!-- marker -->` in the guide."""
    match = re.search(r"^<!-- " + marker + r" -->\n```sh\n(.*?)^```", open(GUIDE).read(), re.S | re.M)
    assert match, f"docs/deployment.md has no block marked {marker}"
    return match.group(1)


def commands(language_block_after):
    """The command lines of the plain ``` block after `language_block_after`, joined where they continue."""
    text = open(GUIDE).read()
    start = text.index(language_block_after)
    match = re.search(r"^```\n(.*?)^```", text[start:], re.S | re.M)
    return [line for line in match.group(1).replace("\\\n", " ").splitlines() if line.strip()]


class ServiceUser:
    def __init__(self):
        if os.geteuid() != 0:
            pytest.fail("the guide's block runs as root, as CI runs the browser suite")
        self.folder = tempfile.mkdtemp(prefix="orders-service-user-")
        os.chmod(self.folder, 0o755)
        self.etc = os.path.join(self.folder, "etc-orders")
        self.state = os.path.join(self.folder, "var-lib-orders")
        sources = os.path.join(self.folder, "sources")
        os.mkdir(sources)
        for name, target in (("order.pem", "order.pem"), ("order.key", "order.key"), ("wwdr.pem", "AppleWWDRCAG4.pem")):
            shutil.copy(os.path.join(PKI, name), os.path.join(sources, target))
        self.secrets = {"P12_PASSPHRASE": secrets.token_hex(16), "PIN": secrets.token_hex(8), "SO_PIN": secrets.token_hex(8)}
        plain = os.path.join(self.folder, "p12.pem")
        subprocess.run(["openssl", "pkcs12", "-in", os.path.join(PKI, "order.p12"), "-passin", "pass:wallet-orders",
                        "-nodes", "-out", plain], check=True, capture_output=True)
        subprocess.run(["openssl", "pkcs12", "-export", "-in", plain, "-passout", "env:P12_PASSPHRASE", "-out",
                        os.path.join(sources, "order.p12")], check=True, capture_output=True,
                       env={**os.environ, **self.secrets})
        os.remove(plain)

        # The guide's block, with its two folders moved into this test's.
        block = replaced(replaced(marked("service-user"), "/etc/orders", self.etc), "/var/lib/orders", self.state)
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=sources, capture_output=True, text=True,
                              env={"PATH": os.environ["PATH"], **self.secrets})
        assert done.returncode == 0, done.stderr
        self.user = pwd.getpwnam("orders")
        mode = os.stat(os.path.join(self.etc, "order.key")).st_mode & 0o777
        assert mode == 0o640 and os.stat(os.path.join(self.etc, "orders.env")).st_mode & 0o777 == 0o600
        self.store = os.path.join(self.state, "orders.sqlite")
        self.additions = [line.replace("/etc/orders", self.etc).replace("/var/lib/orders", self.state)
                          for line in commands("Then add the identity as the service's user")]
        assert len(self.additions) == 3, self.additions

        # The unit's ExecStart and Environment as the user, its SQLite store under the state folder.
        unit = fenced("ini")
        arguments = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M).group(1))
        arguments = [ORDERS] + arguments[1:]
        self.tls_port, self.http_port = free_port(), free_port()
        self.origin = f"https://localhost:{self.tls_port}"
        p8 = os.path.join(self.etc, "AuthKey_ABC123DEFG.p8")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
                       check=True, capture_output=True)
        os.chown(p8, 0, self.user.pw_gid)
        os.chmod(p8, 0o640)
        for option, value in {"--port": "0", "--public-url": self.origin, "--push-key-p8": p8}.items():
            arguments[arguments.index(option) + 1] = value
        arguments += ["--store", self.store, "--trust-root", TEST_ROOT, "--signing-check-interval", "1"]
        self.environment = {"PATH": os.environ["PATH"]}
        for line in re.findall(r"^Environment=(.*)$", unit, re.M):
            name, value = line.split("=", 1)
            self.environment[name] = replaced(value, "/etc/orders", self.etc) if "/etc/orders" in value else value
        with open(os.path.join(self.etc, "orders.env")) as file:  # the EnvironmentFile systemd reads as root
            for line in file.read().splitlines():
                name, value = line.split("=", 1)
                self.environment[name] = value
        # The first identity, then the store exists for the service to open.
        self.add(0)
        self.serve, self.upstream, self.serve_log = start_serve(
            ["setpriv", f"--reuid={self.user.pw_uid}", f"--regid={self.user.pw_gid}", "--init-groups"] + arguments,
            self.environment, self.folder, cwd=self.state)
        certificate = os.path.join(self.folder, "fullchain.pem")
        key = os.path.join(self.folder, "privkey.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True)
        self.nginx = start_nginx(self.folder, self.upstream, self.tls_port, self.http_port, certificate, key)
        self.certificate = certificate

    def orders(self, arguments, check=True):
        """`orders ARGUMENTS --store STORE` as the service's user, as the guide runs it."""
        done = subprocess.run(["runuser", "-u", "orders", "--", ORDERS] + arguments + ["--store", self.store],
                              capture_output=True, text=True, env={**self.environment, **self.secrets}, cwd=self.state)
        assert not check or done.returncode == 0, done.stderr
        return done

    def add(self, index):
        """The guide's `index`th `orders signing add` line, run as written (as the service's user), the
        built binary for `orders`."""
        line = self.additions[index]
        assert line.startswith("runuser -u orders -- ") and " orders signing add " in line, line
        line = line.replace(" orders signing add ", f" {ORDERS} signing add ", 1)
        line += f" --store {shlex.quote(self.store)} --trust-root {shlex.quote(TEST_ROOT)}"
        done = subprocess.run(["bash", "-c", line], capture_output=True, text=True,
                              env={**self.environment, **self.secrets}, cwd=self.state)
        assert done.returncode == 0, f"{line}: {done.stderr}"
        return done.stdout

    def stop(self):
        self.nginx.terminate()
        self.nginx.wait(timeout=30)
        self.serve.terminate()
        self.serve.wait(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def service_user():
    deployment = ServiceUser()
    yield deployment
    deployment.stop()


def content_url(deployment, order_id):
    return f"https://localhost:{deployment.tls_port}/api/v1/orders/{ORDER_TYPE}/{order_id}/content"


def test_each_kind_of_key_signs_as_the_service_user_through_nginx(service_user):
    deployment = service_user
    assert deployment.serve.poll() is None
    key = deployment.orders(["keys", "create", "--order-type", ORDER_TYPE, "--name", "shop"]).stdout.strip()
    headers = {"Authorization": f"Bearer {key}"}
    with open(os.path.join(SOURCES, "order.json")) as file:
        order = json.load(file)
    for field in ("webServiceURL", "authenticationToken", "createdAt", "updatedAt", "orderIdentifier"):
        order.pop(field, None)
    files = [("order.json", ("order.json", json.dumps(order).encode()))] + [
        (name, (name, open(os.path.join(SOURCES, name), "rb").read())) for name in ("logo.png", "item.png")]
    answer = requests.put(content_url(deployment, "SERVICE-USER"), files=files, headers=headers, timeout=60,
                          verify=deployment.certificate)
    assert answer.status_code == 201, f"the PEM identity: {answer.text} {open(deployment.serve_log.name).read()[-2000:]}"

    for index, kind in ((1, "PKCS#12, passphrase from the EnvironmentFile"), (2, "SoftHSM2 token")):
        assert deployment.add(index).startswith("staged"), kind
        deadline = time.monotonic() + 30
        while True:
            activated = deployment.orders(["signing", "activate", "--order-type", ORDER_TYPE], check=False)
            if activated.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert activated.returncode == 0, f"{kind}: {activated.stderr}"
        answer = requests.patch(content_url(deployment, "SERVICE-USER"), data=json.dumps({"status": "completed"}),
                                headers={**headers, "Content-Type": "application/merge-patch+json"}, timeout=60,
                                verify=deployment.certificate)
        assert answer.status_code == 200, f"{kind}: {answer.text}"
    listed = deployment.orders(["signing", "list", "--json"]).stdout
    assert "pkcs11:token=orders" in listed, listed
