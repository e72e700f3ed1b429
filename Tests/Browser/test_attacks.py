"""Attacks, each a test: a forged form post, an open redirect through redirect_uri, a code
replayed, exchanged without its verifier, by another client or after it expired, the consent page
framed by another origin, a client reading an account it was not granted, sign-in guessing, a
public client's code asked for from another site, and paths a browser reads as another host."""

import time
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from client import OAuthClient, http
from deployment import CARD, CHECKING, SAVINGS, Deployment


@pytest.fixture(scope="module")
def signed_in(pages, deployment, budget):
    pages.open(deployment.urls[0] + "/finance/sign-in")
    pages.sign_in()
    return pages.session_cookie()


def authorize(pages, client, accounts, dates=None):
    return pages.authorize(client, accounts, dates)


def test_a_form_posted_without_its_token_changes_nothing(pages, deployment, budget, signed_in, callback):
    cookie = {"Cookie": f"{signed_in['name']}={signed_in['value']}"}
    fields = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(budget.authorization_url()).query))
    fields["decision"] = "deny"
    forged = http("POST", deployment.urls[0] + "/finance/authorize", fields, cookie)
    assert forged.status == 403 and "This Form Has Expired" in forged.body and "location" not in forged.headers
    fields["csrf_token"] = "0" * 64
    assert http("POST", deployment.urls[0] + "/finance/authorize", fields, cookie).status == 403
    assert deployment.access(budget.client_id)["status"] == "notDetermined"
    # From another origin, a page that posts itself: the Strict cookie does not go with it.
    inputs = "".join(f'<input type="hidden" name="{k}" value="{v}">' for k, v in fields.items())
    callback.pages["/forge"] = (f'<!DOCTYPE html><title>forge</title><form id="f" method="post" '
                                f'action="{deployment.urls[0]}/finance/authorize">{inputs}</form>'
                                '<script>document.getElementById("f").submit()</script>')
    pages.open(callback.origin + "/forge")
    pages.wait_for_url(deployment.urls[0])
    assert deployment.access(budget.client_id)["status"] == "notDetermined"


def test_an_unregistered_redirect_uri_is_shown_an_error_never_redirected_to(pages, deployment, budget, signed_in):
    for redirect in ("https://evil.example/callback", budget.redirect_uri + "/more", budget.redirect_uri + "?x=1",
                     budget.redirect_uri.upper()):
        answer = http("GET", budget.authorization_url(redirect_uri=redirect),
                      headers={"Cookie": f"{signed_in['name']}={signed_in['value']}"})
        assert answer.status == 400 and "location" not in answer.headers, redirect
        assert "consent.unknownClient" in answer.body
    pages.open(budget.authorization_url(redirect_uri="https://evil.example/callback"))
    assert pages.heading() == "This Request Can’t Be Used"
    assert pages.driver.current_url.startswith(deployment.urls[-1])
    pages.check_accessible("error page")
    # A malformed request from a registered client goes back to it, with the error.
    answer = http("GET", budget.authorization_url(code_challenge_method="plain"),
                  headers={"Cookie": f"{signed_in['name']}={signed_in['value']}"})
    assert answer.status == 303
    location = urllib.parse.parse_qs(urllib.parse.urlparse(answer.headers["location"]).query)
    assert location["error"] == ["invalid_request"] and location["state"] == [budget.state]


def test_codes_are_single_use_bound_to_their_verifier_and_their_client(pages, deployment, budget, signed_in, callback):
    answer = authorize(pages, budget, [CHECKING, SAVINGS])
    code = answer["code"]
    first = budget.exchange(code)
    assert first.status == 200
    access = first.json()["access_token"]
    assert budget.get("/finance/v1/accounts", access).status == 200
    replay = budget.exchange(code)
    assert replay.status == 400 and replay.json()["error"] == "invalid_grant"
    # The replay took back what the first exchange gave.
    assert budget.get("/finance/v1/accounts", access).status == 401

    code = authorize(pages, budget, [])["code"]
    no_verifier = budget.exchange(code, verifier=None)
    assert no_verifier.status == 400 and no_verifier.json()["error"] == "invalid_grant"
    assert budget.exchange(code).status == 400  # the attempt used the code up

    code = authorize(pages, budget, [])["code"]
    wrong = budget.exchange(code, verifier="x" * 43)
    assert wrong.status == 400 and wrong.json()["error"] == "invalid_grant"

    redirect = callback.origin + "/other/callback"
    other_id, other_secret = deployment.register_client("Other App", redirect)
    other = OAuthClient(budget.server, other_id, other_secret, redirect)
    code = authorize(pages, budget, [])["code"]
    other.verifier = budget.verifier
    stolen = other.exchange(code)
    assert stolen.status == 400 and stolen.json()["error"] == "invalid_grant"
    wrong_secret = OAuthClient(budget.server, budget.client_id, "wcs_" + "A" * 43, budget.redirect_uri)
    code = authorize(pages, budget, [])["code"]
    wrong_secret.verifier = budget.verifier
    refused = wrong_secret.exchange(code)
    assert refused.status == 401 and refused.json()["error"] == "invalid_client"
    assert refused.headers["www-authenticate"].startswith("Basic")


def test_a_client_reads_only_what_was_granted(pages, deployment, budget, signed_in):
    code = authorize(pages, budget, [])["code"]
    token = budget.exchange(code).json()["access_token"]
    shared = {a["id"] for a in budget.get("/finance/v1/accounts", token).json()["accounts"]}
    assert shared == {CHECKING, SAVINGS}
    for path in (f"/finance/v1/transactions?account={CARD}", f"/finance/v1/accounts/{CARD}/balances",
                 f"/finance/v1/history/accounts/{CARD}/transactions"):
        answer = budget.get(path, token)
        assert answer.status == 404 and answer.json()["error"]["code"] == "access.unknownAccount", path
    everything = budget.get("/finance/v1/transactions?limit=500", token).json()["transactions"]
    assert everything and {t["accountID"] for t in everything} <= {CHECKING, SAVINGS}
    assert budget.get("/finance/v1/accounts", "woa_" + "A" * 43).status == 401


def test_the_consent_sheet_cannot_be_framed_by_another_origin(pages, deployment, budget, signed_in, callback):
    # A client not yet decided on, so that the sheet would be shown.
    redirect = callback.origin + "/framed/callback"
    client_id, secret = deployment.register_client("Framing App", redirect)
    url = OAuthClient(budget.server, client_id, secret, redirect).authorization_url()
    answer = http("GET", url, headers={"Cookie": f"{signed_in['name']}={signed_in['value']}"})
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    callback.pages["/frame"] = f'<!DOCTYPE html><title>frame</title><iframe id="f" src="{url}"></iframe>'
    pages.driver.get_log("browser")  # start from an empty console
    pages.open(callback.origin + "/frame")
    frame = pages.driver.find_element(By.ID, "f")
    pages.driver.switch_to.frame(frame)
    try:
        assert "Would Like to Access" not in pages.driver.page_source
    finally:
        pages.driver.switch_to.default_content()
    assert any("frame-ancestors" in entry["message"] for entry in pages.driver.get_log("browser"))


def test_a_public_clients_code_is_never_issued_without_a_click_even_through_the_cross_site_bounce(
        pages, deployment, receipts, signed_in, callback):
    # The owner once shared with the public client (an app on a device).
    first = authorize(pages, receipts, [CHECKING])
    assert first["code"].startswith("woc_")
    # An attacker who knows its id and redirect URI, with a PKCE challenge of its own, makes the
    # owner's browser ask from another site: the Strict cookie does not go with that navigation,
    # the page reloads itself from this site (which brings it)...
    attack = receipts.authorization_url(state="attacker-state")
    callback.pages["/lure"] = (f'<!DOCTYPE html><title>lure</title>'
                               f'<script>location.href = {attack!r}</script>')
    callback.received.clear()
    pages.open(callback.origin + "/lure")
    pages.wait_for_url(receipts.server)
    WebDriverWait(pages.driver, 20).until(lambda d: d.find_elements(By.TAG_NAME, "h1")
                                          and d.find_element(By.TAG_NAME, "h1").text.startswith("Continue Sharing"))
    # ...and finds a page that asks, not a redirect with a code.
    assert pages.heading() == "Continue Sharing with “Receipt Scanner”?"
    assert "Everyday Account" in pages.driver.page_source
    assert not any("attacker-state" in path for path in callback.received)
    pages.check_accessible("confirmation")
    pages.check_fits("confirmation")
    pages.screenshot("consent-confirm")
    # Only the owner's tap gives one, with the issuer (RFC 9207).
    pages.click_button("Continue")
    answer = pages.callback_parameters(receipts.redirect_uri)
    assert answer["code"].startswith("woc_") and answer["state"] == "attacker-state"
    assert answer["iss"] == receipts.server


@pytest.mark.parametrize("path", ["//finance/settings", "/%2Ffinance/settings", "/%5Cfinance/settings", "//console/orders"])
def test_a_path_a_browser_reads_as_another_host_never_bounces_off_site(pages, deployment, signed_in, callback, path):
    # From another site (no cookie goes with the navigation): the page that reloads itself from
    # this site must not send the browser to host "finance".
    callback.pages["/off-site"] = (f'<!DOCTYPE html><title>off-site</title>'
                                   f'<script>location.href = {deployment.urls[0] + path!r}</script>')
    pages.open(callback.origin + "/off-site")
    pages.wait_for_url(deployment.urls[0])
    pages.wait_loaded()
    assert urllib.parse.urlparse(pages.driver.current_url).netloc == urllib.parse.urlparse(deployment.urls[0]).netloc
    assert "request.noRoute" in pages.driver.page_source


def test_a_code_taken_after_it_expired_is_refused_and_gone_from_the_store(callback):
    deployment = Deployment(instances=1, serve_arguments=["--authorization-code-lifetime", "1"])
    try:
        from conftest import Pages, chrome
        driver = chrome()
        try:
            pages = Pages(driver, deployment)
            redirect = callback.origin + "/late/callback"
            client_id, secret = deployment.register_client("Late App", redirect)
            client = OAuthClient(deployment.urls[0], client_id, secret, redirect)
            pages.open(client.authorization_url("/finance/pick"))
            pages.sign_in()
            rows = pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions li label")
            rows[0].click()
            pages.click_button("Continue")
            pages.click_button("Share")
            code = pages.callback_parameters(redirect)["code"]
            # The sweeper deletes the expired code, with the transactions it held: wait for that.
            deadline = time.monotonic() + 30
            while deployment.query("SELECT count(*) FROM authorizationCodes") != "0":
                assert time.monotonic() < deadline, "the expired code was never removed"
                time.sleep(0.2)
            late = client.exchange(code, path="/finance/v1/picked-transactions")
            assert late.status == 400 and late.json()["error"] == "invalid_grant"
        finally:
            driver.quit()
    finally:
        deployment.stop()


def test_guessing_the_password_is_throttled_per_address(callback):
    deployment = Deployment(instances=1)
    try:
        from conftest import Pages, chrome
        driver = chrome()
        try:
            pages = Pages(driver, deployment)
            pages.open(deployment.urls[0] + "/finance/sign-in")
            for guess in range(5):
                pages.sign_in(f"wrong guess number {guess}")
                assert pages.driver.find_element(By.CSS_SELECTOR, "[role=alert]").text == "The password is not correct."
            # Past the limit even the right password is not checked.
            pages.sign_in()
            alert = pages.driver.find_element(By.CSS_SELECTOR, "[role=alert]").text
            assert alert.startswith("Too many failed sign-ins")
            assert pages.heading() == "Sign In"
            assert deployment.query("SELECT count(*) FROM ownerSessions") == "0"
        finally:
            driver.quit()
    finally:
        deployment.stop()
