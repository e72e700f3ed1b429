"""The transaction picker as a person uses it: no authorization needed, search, tokens, pick
three, review, share; the client exchanges the code once for exactly those (a second exchange
fails), and nothing of the selection stays in the store; the client gains no other access."""

import urllib.parse

from selenium.webdriver.common.by import By

from deployment import HOSTILE_DESCRIPTION, HOSTILE_MERCHANT


def pick_url(client):
    return client.authorization_url("/finance/pick")


def test_the_picker_searches_picks_three_and_the_client_gets_exactly_those_once(pages, deployment, receipts):
    # The receipts client was never authorized: the picker does not need it.
    assert deployment.access(receipts.client_id)["status"] == "notDetermined"
    pages.open(pick_url(receipts))
    if pages.heading() == "Sign In":
        pages.sign_in()
    assert pages.heading().startswith("Choose Transactions for")
    pages.check_accessible("transaction picker")
    pages.check_fits("transaction picker")
    pages.screenshot("transaction-picker")
    rows = pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions li")
    assert len(rows) == 50  # a page, newest first
    # Free text: as typed, the script narrows what is shown; Search asks the server.
    search = pages.driver.find_element(By.ID, "q")
    search.send_keys("coffee")
    visible = [r for r in pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions li") if r.is_displayed()]
    assert visible and all("Coffee" in r.text for r in visible)
    pages.click_button("Search")
    rows = pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions li")
    assert rows and all("Corner Coffee" in r.text for r in rows)
    # Tick two coffees, then narrow with a token: the ticks travel with the search.
    chosen = [rows[0].find_element(By.CSS_SELECTOR, "input").get_attribute("value"),
              rows[1].find_element(By.CSS_SELECTOR, "input").get_attribute("value")]
    for row in rows[:2]:
        row.find_element(By.CSS_SELECTOR, "label").click()
    assert pages.driver.find_element(By.CSS_SELECTOR, "[data-count]").text == "2"
    pages.driver.find_element(By.ID, "q").clear()
    token = [label for label in pages.driver.find_elements(By.CSS_SELECTOR, ".tokens label")
             if label.text == "Page Turner Books"][0]
    pages.navigating(token.click)  # the script submits the form
    rows = pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions li")
    assert rows and all("Page Turner Books" in r.text for r in rows)
    assert pages.driver.find_element(By.CSS_SELECTOR, "[data-count]").text == "2"
    chosen.append(rows[0].find_element(By.CSS_SELECTOR, "input").get_attribute("value"))
    rows[0].find_element(By.CSS_SELECTOR, "label").click()
    assert pages.driver.find_element(By.CSS_SELECTOR, "[data-count]").text == "3"
    pages.click_button("Continue")
    assert pages.heading() == "Share 3 Transactions with “Receipt Scanner”?"
    pages.check_accessible("pick review")
    pages.screenshot("pick-review")
    pages.click_button("Share")
    answer = pages.callback_parameters(receipts.redirect_uri)
    assert answer["state"] == receipts.state
    # Held until redeemed: the selection is in the store only with its code.
    assert deployment.query("SELECT count(*) FROM authorizationCodes WHERE selection IS NOT NULL") == "1"

    picked = receipts.exchange(answer["code"], path="/finance/v1/picked-transactions")
    assert picked.status == 200, picked.body
    assert sorted(t["id"] for t in picked.json()["transactions"]) == sorted(chosen)
    again = receipts.exchange(answer["code"], path="/finance/v1/picked-transactions")
    assert again.status == 400 and again.json()["error"] == "invalid_grant"
    assert deployment.query("SELECT count(*) FROM authorizationCodes WHERE selection IS NOT NULL") == "0"
    # No lasting access: still notDetermined, no token, nothing readable.
    assert deployment.access(receipts.client_id)["status"] == "notDetermined"
    assert deployment.query(f"SELECT count(*) FROM clientTokens WHERE client = '{receipts.client_id}'") == "0"


def test_merchant_names_and_descriptions_with_markup_are_shown_as_text(pages, deployment, receipts):
    pages.open(pick_url(receipts) + "&q=" + urllib.parse.quote("Evil"))
    rows = pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions li")
    assert len(rows) == 1
    assert HOSTILE_MERCHANT in rows[0].text and HOSTILE_DESCRIPTION in rows[0].text
    assert pages.driver.execute_script("return window.__pwned === undefined")
    assert pages.driver.find_elements(By.CSS_SELECTOR, "ul.transactions img") == []
    assert pages.console_errors() == []


def test_amounts_and_dates_follow_the_owners_language(pages, deployment, receipts):
    cookie = pages.session_cookie()
    answer = __import__("client").http(
        "GET", pick_url(receipts) + "&q=" + urllib.parse.quote("Fresh Grocer"),
        headers={"Cookie": f"{cookie['name']}={cookie['value']}", "Accept-Language": "de-DE,de;q=0.9"})
    assert answer.status == 200
    assert "-1.234,56\u00a0€" in answer.body  # German grouping and decimal comma, the euro after
    english = __import__("client").http(
        "GET", pick_url(receipts) + "&q=" + urllib.parse.quote("Fresh Grocer"),
        headers={"Cookie": f"{cookie['name']}={cookie['value']}", "Accept-Language": "en-US"})
    assert "-€1,234.56" in english.body


def test_cancel_in_the_picker_shares_nothing(pages, deployment, receipts):
    pages.open(pick_url(receipts))
    pages.click_button("Cancel")
    answer = pages.callback_parameters(receipts.redirect_uri)
    assert answer == {"error": "access_denied", "authorization_status": "notDetermined", "state": receipts.state,
                      "iss": receipts.server}
    assert deployment.query("SELECT count(*) FROM authorizationCodes WHERE purpose = 'pick' AND usedAt IS NULL") == "0"
