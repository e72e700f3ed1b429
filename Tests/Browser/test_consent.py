"""requestAuthorization() as a person meets it: sign in, the consent sheet, Don't Allow, Cancel,
Select Accounts with two of three accounts and a date; the client exchanges the code and reads
exactly what was shared; then Settings: stop sharing one account, then everything. On
PostgreSQL the owner signs in on one instance and answers on the other."""

import os
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from client import OAuthClient
from conftest import PASSWORD, SCREENSHOTS
from deployment import CARD, CHECKING, SAVINGS


def test_sign_in_asks_for_the_password_and_says_only_that_it_is_wrong(pages, deployment, budget):
    pages.open(budget.authorization_url())
    assert pages.heading() == "Sign In"
    pages.check_accessible("sign-in")
    pages.check_fits("sign-in")
    pages.screenshot("sign-in")
    pages.sign_in("not the password at all")
    alert = pages.driver.find_element(By.CSS_SELECTOR, "[role=alert]").text
    assert alert == "The password is not correct."
    # The field is empty again, and nothing else is said about the attempt.
    assert pages.driver.find_element(By.ID, "password").get_attribute("value") == ""
    pages.sign_in()
    assert "Would Like to Access Your Financial Data" in pages.heading()


def test_dont_allow_is_cached_and_returned_without_the_sheet(pages, deployment, receipts):
    pages.open(receipts.authorization_url())
    pages.check_accessible("consent sheet")
    pages.click_button("Don’t Allow")
    answer = pages.callback_parameters(receipts.redirect_uri)
    assert answer == {"error": "access_denied", "authorization_status": "denied", "state": receipts.state,
                      "iss": receipts.server}
    assert deployment.access(receipts.client_id)["status"] == "denied"
    # Asked again: the cached decision, at once, without the sheet.
    pages.open(receipts.authorization_url())
    answer = pages.callback_parameters(receipts.redirect_uri)
    assert answer["error"] == "access_denied" and answer["authorization_status"] == "denied"
    # authorizationStatus never prompts; a public client without a token cannot ask it.
    assert receipts.get("/finance/v1/authorization", "none").status == 401


def test_cancel_records_nothing(pages, deployment, budget, callback):
    pages.open(budget.authorization_url())
    pages.screenshot("consent-sheet")
    pages.check_fits("consent sheet")
    pages.click_button("Cancel")
    answer = pages.callback_parameters(budget.redirect_uri)
    assert answer == {"error": "access_denied", "authorization_status": "notDetermined", "state": budget.state,
                      "iss": budget.server}
    assert deployment.access(budget.client_id)["status"] == "notDetermined"
    # Cancel on the account picker too.
    pages.open(budget.authorization_url())
    pages.click_button("Select Accounts")
    pages.click_button("Cancel")
    assert pages.callback_parameters(budget.redirect_uri)["authorization_status"] == "notDetermined"
    assert deployment.access(budget.client_id)["status"] == "notDetermined"


def test_select_two_of_three_accounts_and_a_date_and_the_client_reads_exactly_that(pages, deployment, budget):
    # On PostgreSQL the sheet comes from the other instance than the one signed in on.
    url = budget.authorization_url()
    if len(deployment.urls) > 1:
        url = url.replace(budget.server, deployment.urls[0])
    pages.open(url)
    assert "Would Like to Access" in pages.heading()
    # Keyboard only: Tab to Select Accounts, Enter.
    body = pages.driver.find_element(By.TAG_NAME, "body")
    for _ in range(12):
        body.send_keys(Keys.TAB)
        active = pages.driver.switch_to.active_element
        if active.text == "Select Accounts":
            break
    assert pages.driver.switch_to.active_element.text == "Select Accounts"
    pages.navigating(lambda: pages.driver.switch_to.active_element.send_keys(Keys.ENTER))
    assert pages.heading().startswith("Share Accounts with")
    pages.check_accessible("account picker")
    pages.check_fits("account picker")
    pages.screenshot("account-picker")
    names = [label.text for label in pages.driver.find_elements(By.CSS_SELECTOR, ".choice .name")]
    assert sorted(names) == ["Everyday Account", "Rainy Day Savings", "Travel Card"]
    pages.driver.find_element(By.ID, f"account-{CHECKING}").click()
    pages.driver.find_element(By.ID, f"account-{CARD}").click()
    date = pages.driver.find_element(By.ID, f"from-{CHECKING}")
    pages.driver.execute_script("arguments[0].value = '2026-01-01'", date)
    # An account left unticked has its date field switched off (the script), and is not sent.
    assert pages.driver.find_element(By.ID, f"from-{SAVINGS}").get_attribute("disabled") == "true"
    pages.driver.execute_script("arguments[0].value = ''", pages.driver.find_element(By.ID, f"from-{CARD}"))
    pages.click_button("Share")
    answer = pages.callback_parameters(budget.redirect_uri)
    assert answer["state"] == budget.state and answer["code"].startswith("woc_")

    tokens = budget.exchange(answer["code"])
    assert tokens.status == 200, tokens.body
    assert tokens.headers["cache-control"] == "no-store"
    access = tokens.json()["access_token"]
    accounts = budget.get("/finance/v1/accounts", access).json()["accounts"]
    assert sorted(a["id"] for a in accounts) == sorted([CHECKING, CARD])
    transactions = budget.get(f"/finance/v1/transactions?account={CHECKING}&limit=500", access).json()["transactions"]
    assert transactions and all(t["transactionDate"] >= "2026-01-01" for t in transactions)
    card = budget.get(f"/finance/v1/transactions?account={CARD}&limit=500", access).json()["transactions"]
    assert any(t["transactionDate"] < "2026-01-01" for t in card)  # no date: the whole history
    assert budget.get("/finance/v1/authorization", access).json() == {"status": "authorized"}
    # The CLI sees the same grant.
    granted = deployment.access(budget.client_id)
    assert granted["status"] == "authorized"
    assert sorted(a["accountID"] for a in granted["accounts"]) == sorted([CHECKING, CARD])
    budget.access_token = access
    budget.refresh_token = tokens.json()["refresh_token"]
    # Asked again: authorized is cached; a new code comes at once.
    pages.open(budget.authorization_url())
    assert pages.callback_parameters(budget.redirect_uri)["code"].startswith("woc_")


def test_settings_shows_the_clients_and_stops_sharing_one_account_then_everything(pages, deployment, budget):
    pages.open(deployment.urls[0] + "/finance/settings")
    pages.check_accessible("settings")
    pages.check_fits("settings")
    pages.screenshot("settings")
    section = [s for s in pages.driver.find_elements(By.CSS_SELECTOR, "section.card") if budget.client_id in s.text][0]
    assert "Budget <b>Planner</b>" in section.text  # the name as text, not markup
    assert "Allowed" in section.text
    # History first, so the deletion of the account shows in it.
    history = budget.get("/finance/v1/history/accounts", budget.access_token).json()
    token = history["newToken"]
    stop = [b for b in section.find_elements(By.CSS_SELECTOR, "button.danger")
            if b.get_attribute("aria-label") == f"Stop sharing Travel Card with Budget <b>Planner</b>"][0]
    pages.navigating(stop.click)
    assert "That account is no longer shared." in pages.driver.find_element(By.CSS_SELECTOR, "[role=status]").text
    accounts = budget.get("/finance/v1/accounts", budget.access_token).json()["accounts"]
    assert [a["id"] for a in accounts] == [CHECKING]
    changes = budget.get("/finance/v1/history/accounts?since=" + urllib.parse.quote(token, safe=""),
                         budget.access_token).json()
    assert changes["deleted"] == [CARD]
    assert budget.get(f"/finance/v1/transactions?account={CARD}", budget.access_token).status == 404
    # Everything: the client becomes denied, its tokens stop working.
    section = [s for s in pages.driver.find_elements(By.CSS_SELECTOR, "section.card") if budget.client_id in s.text][0]
    pages.navigating(section.find_element(By.CSS_SELECTOR, "form.revoke button").click)
    assert "The app no longer has access." in pages.driver.find_element(By.CSS_SELECTOR, "[role=status]").text
    assert budget.get("/finance/v1/accounts", budget.access_token).status == 401
    assert budget.refresh(budget.refresh_token).json()["error"] == "invalid_grant"
    assert deployment.access(budget.client_id)["status"] == "denied"


def test_sign_out_ends_the_session_on_every_instance(pages, deployment):
    pages.open(deployment.urls[0] + "/finance/settings")
    pages.click_button("Sign Out")
    assert pages.heading() == "Signed Out"
    pages.check_accessible("signed out")
    for url in deployment.urls:
        pages.open(url + "/finance/settings")
        assert pages.heading() == "Sign In"


SHEETS = {
    # Accept-Language: (the sheet's heading, its Select Accounts button, the account picker's heading)
    "en-US": ("“Budget <b>Planner</b>” Would Like to Access Your Financial Data", "Select Accounts", "Share Accounts with"),
    "de-DE": ("„Budget <b>Planner</b>“ möchte auf deine Finanzdaten zugreifen", "Konten auswählen", "Konten mit"),
    "fr-FR": ("« Budget <b>Planner</b> » souhaite accéder à vos données financières", "Choisir les comptes",
              "Partager des comptes avec"),
    "es-ES": ("«Budget <b>Planner</b>» quiere acceder a tus datos financieros", "Seleccionar cuentas",
              "Compartir cuentas con"),
    "ja-JP": ("“Budget <b>Planner</b>”が財務データへのアクセスを求めています", "口座を選択", "“Budget <b>Planner</b>”と口座を共有"),
    "zh-CN": ("“Budget <b>Planner</b>”想要访问你的财务数据", "选择账户", "与“Budget <b>Planner</b>”共享账户"),
}


@pytest.fixture(scope="module")
def undecided(deployment, callback):
    """A client nobody has answered yet: each language's sheet is asked of it, and cancelled."""
    redirect = callback.origin + "/undecided/callback"
    client_id, secret = deployment.register_client("Budget <b>Planner</b>", redirect)
    return OAuthClient(deployment.urls[-1], client_id, secret, redirect)


@pytest.mark.parametrize("language", list(SHEETS))
def test_the_sheet_speaks_the_languages_of_wallet(pages, deployment, undecided, language):
    """The consent sheet and its account picker in each language of Wallet (the browser's
    Accept-Language), the app's name as text in each; a screenshot per language."""
    heading, select, picker = SHEETS[language]
    budget = undecided
    pages.driver.execute_cdp_cmd("Network.enable", {})
    pages.driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": language}})
    try:
        pages.open(budget.authorization_url())
        if pages.driver.find_elements(By.ID, "password"):
            field = pages.driver.find_element(By.ID, "password")
            field.send_keys(PASSWORD)
            pages.navigating(pages.driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
        assert pages.heading() == heading
        tag = pages.driver.find_element(By.TAG_NAME, "html").get_attribute("lang")
        assert tag == ("zh-Hans" if language == "zh-CN" else language.split("-")[0])
        pages.check_accessible(f"consent sheet ({language})")
        pages.check_fits(f"consent sheet ({language})")
        if SCREENSHOTS:
            os.makedirs(SCREENSHOTS, exist_ok=True)
            pages.driver.set_window_size(430, 900)
            pages.driver.save_screenshot(os.path.join(SCREENSHOTS, f"consent-sheet-{tag}.png"))
            pages.driver.set_window_size(1280, 900)
        pages.click_button(select)
        assert pages.heading().startswith(picker)
        pages.check_fits(f"account picker ({language})")
    finally:
        pages.driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
