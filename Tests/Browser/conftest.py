"""Fixtures of the browser suite: deployments of `orders serve`, the test client and its
callback server, and Debian's Chromium driven headless through WebDriver, with axe-core checks
and screenshots."""

import os
import secrets
import sys
import urllib.parse

import pytest
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(__file__))

from client import CallbackServer, OAuthClient  # noqa: E402
from deployment import PASSWORD, Deployment  # noqa: E402

SCREENSHOTS = os.environ.get("ORDERS_SCREENSHOTS", "")
CHROMIUM = os.environ.get("ORDERS_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("ORDERS_CHROMEDRIVER", "/usr/bin/chromedriver")


@pytest.fixture(scope="module")
def callback():
    server = CallbackServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def deployment():
    deployment = Deployment()
    yield deployment
    deployment.stop()


@pytest.fixture(scope="module")
def budget(deployment, callback):
    """A confidential client (an app's server), registered by the operator."""
    redirect = callback.origin + "/budget/callback"
    client_id, secret = deployment.register_client("Budget <b>Planner</b>", redirect)
    return OAuthClient(deployment.urls[-1], client_id, secret, redirect)


@pytest.fixture(scope="module")
def receipts(deployment, callback):
    """A public client (an app on a device): no secret, PKCE alone."""
    redirect = callback.origin + "/receipts/callback"
    client_id, _ = deployment.register_client("Receipt Scanner", redirect, public=True)
    return OAuthClient(deployment.urls[-1], client_id, None, redirect)


def chrome(language="en-US", extra_arguments=()):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", f"--lang={language}", *extra_arguments):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def browser():
    driver = chrome()
    yield driver
    driver.quit()


class Pages:
    """What a person does in the browser, and what the suite checks on every page."""

    def __init__(self, driver, deployment):
        self.driver = driver
        self.deployment = deployment

    def open(self, url):
        self.driver.get(url)
        self.wait_loaded()

    def wait_loaded(self):
        WebDriverWait(self.driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def sign_in(self, password=PASSWORD):
        field = self.driver.find_element(By.ID, "password")
        field.clear()
        field.send_keys(password)
        self.click_button("Sign In")

    def click_button(self, text):
        buttons = [b for b in self.driver.find_elements(By.CSS_SELECTOR, "button, a.button") if b.text.strip() == text]
        assert buttons, f"no button {text!r} on {self.driver.current_url}"
        self.navigating(buttons[0].click)

    def click_button_labelled(self, label):
        """The button whose accessible name is `label` (its aria-label)."""
        buttons = self.driver.find_elements(By.CSS_SELECTOR, f"button[aria-label='{label}']")
        assert buttons, f"no button labelled {label!r} on {self.driver.current_url}"
        self.navigating(buttons[0].click)

    def navigating(self, action):
        """Runs `action`, which leaves the page, and waits for the next page to have loaded.

        The old page is marked with a value only it holds. Not an element's staleness: while
        the page is replaced, chromedriver may answer "Node with given id does not belong to the
        document" (an unknown error) instead of a stale element."""
        marker = secrets.token_hex(8)
        self.driver.execute_script("window.__ordersPage = arguments[0]", marker)
        action()
        WebDriverWait(self.driver, 20, ignored_exceptions=(WebDriverException,)).until(
            lambda d: d.execute_script(
                "return window.__ordersPage !== arguments[0] && document.readyState === 'complete'", marker
            )
        )

    def heading(self):
        return self.driver.find_element(By.TAG_NAME, "h1").text

    def wait_for_url(self, prefix):
        WebDriverWait(self.driver, 20).until(lambda d: d.current_url.startswith(prefix))
        return self.driver.current_url

    def callback_parameters(self, prefix):
        url = self.wait_for_url(prefix)
        return {key: values[0] for key, values in urllib.parse.parse_qs(urllib.parse.urlparse(url).query).items()}

    def check_accessible(self, name):
        """axe-core: no serious or critical violation."""
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run()
        serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        assert serious == [], f"{name}: " + "; ".join(
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}" for v in serious)

    def check_fits(self, name, width=320):
        """Nothing wider than a 320 px screen."""
        original = self.driver.get_window_size()
        self.driver.set_window_size(width, 800)
        try:
            overflow = self.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{name} is {overflow} px too wide at {width} px"
        finally:
            self.driver.set_window_size(original["width"], original["height"])

    def screenshot(self, name):
        """Light and dark, narrow and wide, into $ORDERS_SCREENSHOTS when it is set."""
        if not SCREENSHOTS:
            return
        os.makedirs(SCREENSHOTS, exist_ok=True)
        original = self.driver.get_window_size()
        try:
            for scheme in ("light", "dark"):
                self.driver.execute_cdp_cmd(
                    "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for label, width in (("narrow", 375), ("wide", 1280)):
                    self.driver.set_window_size(width, 900)
                    height = self.driver.execute_script("return document.documentElement.scrollHeight")
                    # The whole page, or its first 1,600 px (a long list shows how it begins).
                    self.driver.set_window_size(width, min(max(height + 140, 600), 1600))
                    self.driver.execute_script("window.scrollTo(0, 0)")
                    # Two animation frames: the resize has been laid out and painted.
                    self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
                    self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{scheme}-{label}.png"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            self.driver.set_window_size(original["width"], original["height"])

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def authorize(self, client, accounts, dates=None):
        """Walks the sheet and the account picker, sharing `accounts` (each from its date in
        `dates`, else the whole history); returns the callback's parameters."""
        self.open(client.authorization_url())
        if self.heading().startswith("Share Accounts") or "Would Like" in self.heading():
            self.click_button("Select Accounts")
            for account in accounts:
                self.driver.find_element(By.ID, f"account-{account}").click()
                self.driver.execute_script(
                    "arguments[0].value = arguments[1]", self.driver.find_element(By.ID, f"from-{account}"),
                    (dates or {}).get(account, ""))
            self.click_button("Share")
        return self.callback_parameters(client.redirect_uri)

    def session_cookie(self):
        for cookie in self.driver.get_cookies():
            if cookie["name"].endswith("orders_session"):
                return cookie
        return None


@pytest.fixture(scope="module")
def pages(browser, deployment):
    return Pages(browser, deployment)
