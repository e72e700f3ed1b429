"""Orders people can see, in headless Chromium: every valid test archive rendered by `orders preview`
(no console error, nothing fetched, no broken image, order.json's texts visible with their
localized values), markup and `javascript:` URLs in an order shown as text, and the customer's
order page on `orders serve` — a signed link works, a tampered or expired one is the same 404 as
an unknown order, and Add to Apple Wallet downloads the stored archive byte for byte."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import zipfile

import pytest
from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS, Pages, chrome
from deployment import ORDERS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARCHIVES = os.path.join(ROOT, "TestArchives")
TEST_ROOT = os.path.join(ARCHIVES, "pki", "root.pem")
HOSTILE_NAME = "<script>window.__pwned = 1</script>Evil Shop"


def valid_archives():
    """Every archive TestArchives/expectations.tsv calls valid when verified now."""
    files = []
    with open(os.path.join(ARCHIVES, "expectations.tsv")) as table:
        for line in table:
            columns = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(columns) < 3 or not columns[0].startswith("valid/"):
                continue
            if columns[1] == "-" and columns[2] == "valid" and columns[0] not in files:
                files.append(columns[0])
    return files


def strings_table(archive, preferred="en"):
    """The order.strings table `orders preview --locale en-US` shows: en, else the first."""
    with zipfile.ZipFile(archive) as zip:
        folders = sorted({name.split("/")[0][:-len(".lproj")] for name in zip.namelist()
                          if name.endswith(".lproj/order.strings")})
        if not folders:
            return {}
        chosen = preferred if preferred in folders else folders[0]
        data = zip.read(f"{chosen}.lproj/order.strings")
    text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data.decode("utf-8-sig")
    pattern = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')
    unescape = lambda value: re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), value)
    return {unescape(key): unescape(value) for key, value in pattern.findall(text)}


def visible_texts(archive):
    """Texts of order.json the page must show, as the reader's table resolves them."""
    with zipfile.ZipFile(archive) as zip:
        order = json.loads(zip.read("order.json"))
    table = strings_table(archive)
    texts = [order["merchant"]["displayName"], order.get("orderNumber") or order["orderIdentifier"]]
    texts += [item["title"] for item in order.get("lineItems", [])]
    texts += [f["carrier"] for f in order.get("fulfillments", []) if f.get("carrier")]
    return [table.get(text, text) for text in texts]


def preview(archive, folder, locale="en-US"):
    target = os.path.join(folder, os.path.basename(archive) + ".html")
    result = subprocess.run([ORDERS, "preview", "--locale", locale, "--trust-root", TEST_ROOT, "-o", target, archive],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return target


def packed(folder, name, edit):
    """The small test order with `edit` applied to its order.json, packed and signed by the test PKI."""
    source = os.path.join(folder, name)
    shutil.copytree(os.path.join(ARCHIVES, "sources", "small"), source)
    with open(os.path.join(source, "order.json")) as file:
        order = json.load(file)
    edit(order)
    with open(os.path.join(source, "order.json"), "w") as file:
        json.dump(order, file)
    target = os.path.join(folder, name + ".order")
    pki = os.path.join(ARCHIVES, "pki")
    subprocess.run([ORDERS, "pack", source, "--certificate", os.path.join(pki, "order.pem"), "--key",
                    os.path.join(pki, "order.key"), "--intermediate", os.path.join(pki, "wwdr.pem"), "-o", target],
                   check=True, capture_output=True, timeout=120)
    return target


def hostile(order):
    order["orderIdentifier"] = "HOSTILE-1"
    order["merchant"]["displayName"] = HOSTILE_NAME
    order["merchant"]["url"] = "javascript:window.__pwned=3"
    order["orderManagementURL"] = "javascript:window.__pwned=4"


@pytest.fixture(scope="module")
def folder():
    path = tempfile.mkdtemp(prefix="orders-pages-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def check_page(pages, origin=None):
    """No console error, nothing fetched from anywhere but `origin` (or nowhere: data: only),
    no broken image, no script ran."""
    driver = pages.driver
    assert pages.console_errors() == []
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    outside = [name for name in resources if not name.startswith("data:")
               and not (origin and name.startswith(origin + "/"))]
    assert outside == [], outside
    broken = driver.execute_script(
        "return Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src.slice(0, 40))")
    assert broken == []
    assert driver.execute_script("return window.__pwned === undefined")


@pytest.mark.parametrize("archive", valid_archives())
def test_every_valid_archive_renders(pages, folder, archive):
    path = os.path.join(ARCHIVES, archive)
    pages.open("file://" + preview(path, folder))
    check_page(pages)
    body = pages.driver.find_element(By.TAG_NAME, "body").text
    for text in visible_texts(path):
        assert text in body, f"{archive}: {text!r} is not on the page"
    assert pages.driver.find_element(By.TAG_NAME, "h1").text.startswith("Order ")


def test_the_full_order_is_accessible_in_both_schemes_and_widths(pages, folder):
    pages.open("file://" + preview(os.path.join(ARCHIVES, "valid", "full.order"), folder))
    for scheme in ("light", "dark"):
        pages.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        pages.check_accessible(f"order preview ({scheme})")
    pages.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    pages.check_fits("order preview", width=375)
    barcodes = pages.driver.find_elements(By.CSS_SELECTOR, "svg.barcode")
    assert len(barcodes) == 2 and all(svg.get_attribute("role") == "img" for svg in barcodes)
    pages.screenshot("order-preview")


HEADINGS = {"en-US": "Order", "de-DE": "Bestellung", "fr-FR": "Commande", "es-ES": "Pedido", "ja-JP": "注文",
            "zh-Hans-CN": "订单"}


@pytest.mark.parametrize("locale", list(HEADINGS))
def test_the_page_speaks_the_languages_of_wallet(pages, folder, locale):
    """The page's own words in each language Wallet speaks (the merchant's come from order.strings);
    the divider above the total is one line; a screenshot per language."""
    pages.open("file://" + preview(os.path.join(ARCHIVES, "valid", "full.order"), folder, locale=locale))
    check_page(pages)
    assert pages.driver.find_element(By.TAG_NAME, "h1").text.startswith(HEADINGS[locale] + " ")
    headings = [h.text for h in pages.driver.find_elements(By.TAG_NAME, "h2")]
    if not locale.startswith("en"):
        assert not {"Items", "Payment", "Returns", "Shipment", "Delivery"} & set(headings), headings
    pages.check_accessible(f"order preview ({locale})")
    # One line: the label's border meets the amount's across the grid's gap.
    label, amount = (pages.driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.right, r.top]",
        selector) for selector in (".amounts dt.total", ".amounts dd.total"))
    assert abs(label[1] - amount[0]) <= 1 and abs(label[2] - amount[2]) <= 1, (label, amount)
    if SCREENSHOTS:
        pages.driver.set_window_size(430, 1400)
        pages.driver.execute_script("window.scrollTo(0, 0)")
        pages.driver.save_screenshot(os.path.join(SCREENSHOTS, f"order-preview-{locale.split('-')[0]}.png"))
        pages.driver.set_window_size(1280, 900)


def test_markup_in_an_order_is_text_and_javascript_urls_are_no_links(pages, folder):
    archive = packed(folder, "hostile", hostile)
    pages.open("file://" + preview(archive, folder))
    check_page(pages)
    assert HOSTILE_NAME in pages.driver.find_element(By.TAG_NAME, "body").text
    assert pages.driver.find_elements(By.TAG_NAME, "script") == []
    hrefs = [a.get_attribute("href") or "" for a in pages.driver.find_elements(By.TAG_NAME, "a")]
    assert hrefs and all(href.startswith("https://") for href in hrefs), hrefs


@pytest.fixture(scope="module")
def customer(deployment, folder):
    """The full and the localized order in the deployment's store, and the hostile one."""
    hostile_archive = packed(folder, "hostile-served", hostile)
    for archive in (os.path.join(ARCHIVES, "valid", "full.order"), os.path.join(ARCHIVES, "valid", "localized.order"),
                    hostile_archive):
        deployment.orders(["add", "--yes", "--trust-root", TEST_ROOT, archive])

    def link(order_id, expires="7d"):
        return deployment.orders(["link", "--type", "order.com.example.shop", "--id", order_id, "--expires", expires,
                                  "--base-url", deployment.urls[-1]]).stdout.strip()
    return link


def download(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers.get("Content-Type"), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), error.read()


def test_the_customer_page_shows_the_order_and_adds_it_to_wallet(pages, deployment, customer):
    link = customer("ORDER-FULL-1")
    pages.open(link)
    origin = deployment.urls[-1]
    check_page(pages, origin)
    assert pages.heading() == "Order 123-456-789"
    button = pages.driver.find_element(By.CSS_SELECTOR, "a.add-to-wallet")
    assert button.text == "Add to Apple Wallet"
    status, content_type, body = download(button.get_attribute("href"))
    assert status == 200 and content_type == "application/vnd.apple.finance.order"
    with open(os.path.join(ARCHIVES, "valid", "full.order"), "rb") as file:
        assert body == file.read()
    pages.check_accessible("customer order page")
    pages.check_fits("customer order page", width=375)
    pages.screenshot("customer-order")


def test_the_tracking_number_stays_whole_on_a_phone(pages, customer):
    """At 320 and 375 px the tracking number is one line box, its text whole, and nothing is wider
    than the screen (issue 53, item 8: it broke as "JD01460000382 / 8")."""
    pages.open(customer("ORDER-FULL-1"))
    original = pages.driver.get_window_size()
    try:
        for width in (320, 375, 1280):
            pages.driver.set_window_size(width, 900)
            measured = pages.driver.execute_script("""
                const dd = document.querySelector('dd.id');
                const range = document.createRange();
                range.selectNodeContents(dd);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                return {text: dd.textContent, lines: lines.size, right: dd.getBoundingClientRect().right,
                        width: document.documentElement.clientWidth,
                        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
                """)
            assert measured["text"] == "JD014600003828", measured
            assert measured["lines"] == 1, f"at {width} px the tracking number takes {measured['lines']} lines"
            assert measured["overflow"] <= 0 and measured["right"] <= measured["width"], measured
    finally:
        pages.driver.set_window_size(original["width"], original["height"])


def test_a_tampered_or_expired_link_is_the_same_404_as_an_unknown_order(pages, deployment, customer):
    good = customer("ORDER-FULL-1")
    expired = re.sub(r"expires=\d+", "expires=1000000000", good)
    tampered = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    unknown = good.replace("ORDER-FULL-1", "ORDER-NOPE")
    answers = [download(url) for url in (expired, tampered, unknown, good.replace("?", "/archive?")[:-2])]
    assert {status for status, _, _ in answers} == {404}
    assert len({body for _, _, body in answers}) == 1
    pages.open(unknown)
    assert pages.heading() == "This Link Doesn’t Work"
    # The one console error a 404 page has: its own status.
    assert all("status of 404" in entry["message"] for entry in pages.console_errors())
    pages.check_accessible("customer order page, not found")
    pages.screenshot("customer-order-not-found")


def test_the_customer_page_speaks_the_readers_language(deployment, customer):
    link = customer("ORDER-L10N-1")
    driver = chrome("de-DE")
    try:
        german = Pages(driver, deployment)
        german.open(link)
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "Beispiel-Laden" in body and "MERCHANT_NAME" not in body
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
        assert driver.find_element(By.TAG_NAME, "h1").text.startswith("Bestellung ")
    finally:
        driver.quit()


def test_markup_on_the_customer_page_is_text(pages, deployment, customer):
    pages.open(customer("HOSTILE-1"))
    check_page(pages, deployment.urls[-1])
    assert HOSTILE_NAME in pages.driver.find_element(By.TAG_NAME, "body").text
    hrefs = [a.get_attribute("href") or "" for a in pages.driver.find_elements(By.TAG_NAME, "a")]
    assert not any(href.startswith("javascript:") for href in hrefs), hrefs
