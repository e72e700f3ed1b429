"""The service as client developers meet it through libraries written elsewhere, used as their
documentation says: authlib configured from the authorization server's metadata (RFC 8414),
through the code flow with PKCE, the issuer in the response (RFC 9207) and revocation (RFC 7009);
a webhook receiver verifying deliveries with `standardwebhooks` and with Stripe's SDK; a history
stream read with `httpx-sse`."""

import http.server as httpserver
import json
import os
import threading
import time
import urllib.request

import urllib.parse

import httpx
import pytest
from authlib.common.security import generate_token
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from selenium.webdriver.common.by import By
import standardwebhooks
import stripe
from httpx_sse import connect_sse

from client import OAuthClient
from conftest import Pages
from deployment import CHECKING, Deployment


@pytest.fixture(scope="module")
def hooks():
    """A deployment that may deliver to this machine (the receiver is on loopback)."""
    deployment = Deployment(instances=1, serve_arguments=["--allow-private-webhooks"])
    yield deployment
    deployment.stop()


class Receiver:
    """A webhook receiver on loopback: records each delivery's headers and raw body, answers 200."""

    def __init__(self):
        self.deliveries = []
        owner = self

        class Handler(httpserver.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                owner.deliveries.append(({key.lower(): value for key, value in self.headers.items()}, body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *arguments):
                pass

        self.server = httpserver.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/wallet-deliveries"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, timeout=60):
        deadline = time.monotonic() + timeout
        while not self.deliveries:
            assert time.monotonic() < deadline, "no delivery within 60 s"
            time.sleep(0.05)
        return self.deliveries[0]

    def stop(self):
        self.server.shutdown()


def json_request(method, url, body, token):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method=method,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read())


def test_a_delivery_verifies_with_standardwebhooks_and_with_stripes_sdk(browser, hooks, callback):
    pages = Pages(browser, hooks)
    redirect = callback.origin + "/hooks/callback"
    client_id, secret = hooks.register_client("Hooks", redirect)
    client = OAuthClient(hooks.urls[0], client_id, secret, redirect)
    pages.open(hooks.urls[0] + "/finance/sign-in")
    pages.sign_in()
    token = client.exchange(pages.authorize(client, [CHECKING])["code"]).json()["access_token"]
    receiver = Receiver()
    try:
        status, created = json_request("PUT", hooks.urls[0] + "/finance/v1/background-delivery",
                                       {"types": ["transactions"], "frequency": "hourly", "url": receiver.url}, token)
        assert status == 201
        endpoint = created["endpoint"]
        assert endpoint["secret"].startswith("wds_") and endpoint["standardWebhooksSecret"].startswith("whsec_")
        # A change on the shared account wakes the client.
        update = os.path.join(hooks.folder, "update.json")
        with open(update, "w") as file:
            json.dump({"transactions": [{
                "id": "C0000000-0000-4000-8000-000000000001", "accountID": CHECKING,
                "transactionAmount": {"amount": "9.99", "currencyCode": "EUR"}, "creditDebitIndicator": "debit",
                "transactionDescription": "Hook test", "merchantName": "Hook Shop", "merchantCategoryCode": 5999,
                "transactionType": "pointOfSale", "status": "booked", "transactionDate": "2026-11-27T10:00:00Z"}]},
                file)
        hooks.orders(["finance", "import", update])
        headers, body = receiver.wait()
    finally:
        receiver.stop()

    # Standard Webhooks, with the whsec_ form of the secret: the library's verify raises if wrong.
    payload = standardwebhooks.Webhook(endpoint["standardWebhooksSecret"]).verify(body, headers)
    assert payload["types"] == ["transactions"] and headers["webhook-id"] == payload["deliveryID"]
    with pytest.raises(standardwebhooks.webhooks.WebhookVerificationError):
        standardwebhooks.Webhook(endpoint["standardWebhooksSecret"]).verify(body + b" ", headers)

    # Wallet-Signature is Stripe's scheme: Stripe's SDK verifies it with the wds_ secret.
    event = stripe.Webhook.construct_event(body, headers["wallet-signature"], endpoint["secret"])
    assert event["deliveryID"] == payload["deliveryID"]
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.Webhook.construct_event(body, headers["wallet-signature"], endpoint["secret"] + "x")


def test_a_revoked_clients_stream_ends_with_its_event_and_a_finished_response_httpx_sse(browser, hooks, callback):
    pages = Pages(browser, hooks)
    redirect = callback.origin + "/stream/callback"
    client_id, secret = hooks.register_client("Streamer", redirect)
    client = OAuthClient(hooks.urls[0], client_id, secret, redirect)
    pages.open(hooks.urls[0] + "/finance/sign-in")
    if pages.heading() == "Sign In":
        pages.sign_in()
    token = client.exchange(pages.authorize(client, [CHECKING])["code"]).json()["access_token"]
    url = f"{hooks.urls[0]}/finance/v1/history/accounts/{CHECKING}/transactions"
    events = []
    with httpx.Client(timeout=30) as http:
        with connect_sse(http, "GET", url, headers={"Authorization": "Bearer " + token}) as source:
            for event in source.iter_sse():
                events.append(event)
                if len(events) == 1:
                    # The catch-up came; now the operator revokes the client.
                    assert event.event == "changes"
                    hooks.orders(["finance", "clients", "revoke", client_id])
    # httpx-sse read the stream to its proper end (no "peer closed connection without sending
    # complete message body"), and the last event says why.
    assert [event.event for event in events][-1] == "revoked"
    assert json.loads(events[-1].data)["code"] == "consent.invalidToken"


def test_authlib_from_the_metadata_through_the_code_flow_to_revocation(browser, hooks, callback, monkeypatch):
    # The test deployment speaks plain HTTP on loopback; authlib insists on HTTPS otherwise.
    monkeypatch.setenv("AUTHLIB_INSECURE_TRANSPORT", "1")
    server = hooks.urls[0]
    metadata = AuthorizationServerMetadata(httpx.get(server + "/.well-known/oauth-authorization-server").json())
    metadata.validate()
    assert metadata["issuer"] == server
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["authorization_response_iss_parameter_supported"] is True

    redirect = callback.origin + "/authlib/callback"
    client_id, secret = hooks.register_client("Authlib App", redirect)
    oauth = OAuth2Client(client_id, secret, redirect_uri=redirect, code_challenge_method="S256",
                         token_endpoint_auth_method="client_secret_basic")
    verifier = generate_token(64)
    url, state = oauth.create_authorization_url(metadata["authorization_endpoint"], code_verifier=verifier)

    pages = Pages(browser, hooks)
    pages.open(url)
    if pages.heading() == "Sign In":
        pages.sign_in()
    pages.click_button("Select Accounts")
    pages.driver.find_element(By.ID, f"account-{CHECKING}").click()
    pages.click_button("Share")
    response = pages.wait_for_url(redirect)
    answer = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(response).query))
    assert answer["iss"] == metadata["issuer"] and answer["state"] == state

    token = oauth.fetch_token(metadata["token_endpoint"], authorization_response=response, code_verifier=verifier)
    accounts = oauth.get(server + "/finance/v1/accounts")
    assert accounts.status_code == 200 and [a["id"] for a in accounts.json()["accounts"]] == [CHECKING]

    # RFC 7009, as authlib calls it: the refresh token takes the whole grant with it.
    revoked = oauth.revoke_token(metadata["revocation_endpoint"], token=token["refresh_token"],
                                 token_type_hint="refresh_token")
    assert revoked.status_code == 200
    refused = httpx.get(server + "/finance/v1/accounts", headers={"Authorization": "Bearer " + token["access_token"]})
    assert refused.status_code == 401 and 'error="invalid_token"' in refused.headers["www-authenticate"]
    # No credentials at all: a challenge without an error code (RFC 6750 §3.1).
    bare = httpx.get(server + "/finance/v1/accounts")
    assert bare.status_code == 401 and bare.headers["www-authenticate"] == 'Bearer realm="finance"'
