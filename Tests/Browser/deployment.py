"""A throwaway `orders serve` deployment for the browser suite: a store (SQLite, or a new
PostgreSQL database with two instances on it), the owner's password, financial data, registered
clients, and the running servers. Everything goes through the real `orders` binary."""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse
import uuid

ORDERS = os.environ.get("ORDERS_BINARY", "")
POSTGRES = os.environ.get("ORDERS_TEST_POSTGRES", "")
BACKEND = os.environ.get("ORDERS_BROWSER_BACKEND", "sqlite")
PASSWORD = "correct horse battery staple"

CHECKING = "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B"
SAVINGS = "3D4E5F60-7182-4394-A5B6-C7D8E9F0A1B2"
CARD = "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A"
HOSTILE_MERCHANT = '<script>window.__pwned = 1</script>Evil Shop'
HOSTILE_DESCRIPTION = '<img src=x onerror="window.__pwned = 2">Refund'


def feed():
    """Three accounts, and transactions over two years in each: merchants to search for and
    pick, a hostile merchant name and description, and rows older than the dates chosen."""
    accounts = [
        {"id": CHECKING, "type": "asset", "displayName": "Everyday Account", "institutionName": "Example Bank",
         "currencyCode": "EUR", "openingDate": "2024-03-01T00:00:00Z"},
        {"id": SAVINGS, "type": "asset", "displayName": "Rainy Day Savings", "institutionName": "Example Bank",
         "currencyCode": "EUR", "openingDate": "2024-03-01T00:00:00Z"},
        {"id": CARD, "type": "liability", "displayName": "Travel Card", "institutionName": "Other Bank",
         "currencyCode": "EUR", "openingDate": "2024-06-01T00:00:00Z",
         "creditInformation": {"creditLimit": {"amount": "5000.00", "currencyCode": "EUR"}}},
    ]
    merchants = [("Corner Coffee", 5814, "4.20"), ("Fresh Grocer", 5411, "62.35"), ("Page Turner Books", 5942, "18.90"),
                 ("City Rail", 4111, "2.90"), ("Corner Coffee", 5814, "3.80"), ("Fresh Grocer", 5411, "1234.56")]
    transactions = []
    number = 0
    for account in (CHECKING, SAVINGS, CARD):
        for month in range(1, 13):
            for year in (2025, 2026):
                merchant, mcc, amount = merchants[(number + month) % len(merchants)]
                number += 1
                day = f"{year}-{month:02d}-{(number % 27) + 1:02d}T10:00:00Z"
                transactions.append({
                    "id": str(uuid.UUID(int=0xB0000000_0000_4000_8000_000000000000 + number)).upper(),
                    "accountID": account, "transactionAmount": {"amount": amount, "currencyCode": "EUR"},
                    "creditDebitIndicator": "debit", "transactionDescription": f"{merchant} purchase {number}",
                    "merchantName": merchant, "merchantCategoryCode": mcc, "transactionType": "pointOfSale",
                    "status": "booked" if number % 5 else "pending", "transactionDate": day, "postedDate": day,
                })
    transactions.append({
        "id": "B0000000-0000-4000-8000-0000000000FF", "accountID": CHECKING,
        "transactionAmount": {"amount": "13.37", "currencyCode": "EUR"}, "creditDebitIndicator": "credit",
        "transactionDescription": HOSTILE_DESCRIPTION, "merchantName": HOSTILE_MERCHANT, "merchantCategoryCode": 5999,
        "transactionType": "refund", "status": "booked", "transactionDate": "2026-11-20T10:00:00Z",
        "postedDate": "2026-11-20T10:00:00Z",
    })
    return {"accounts": accounts, "balances": [], "transactions": transactions}


class Deployment:
    """A store and one or two `orders serve` instances on it."""

    def __init__(self, instances=None, serve_arguments=()):
        self.folder = tempfile.mkdtemp(prefix="orders-browser-")
        self.processes = []
        self.urls = []
        if BACKEND == "postgres":
            self.location = ["--database", new_postgres_database()]
            count = 2 if instances is None else instances
        else:
            self.store = os.path.join(self.folder, "store.sqlite")
            self.location = ["--store", self.store]
            count = 1 if instances is None else instances
        self.orders(["owner", "set-password", "--cost", "4"], input=PASSWORD + "\n")
        feed_path = os.path.join(self.folder, "feed.json")
        with open(feed_path, "w") as file:
            json.dump(feed(), file)
        self.orders(["finance", "import", feed_path])
        for index in range(count):
            self.start(index, serve_arguments)

    def orders(self, arguments, input=None, check=True):
        environment = {key: value for key, value in os.environ.items() if not key.startswith("ORDERS_")}
        result = subprocess.run([ORDERS] + arguments + self.location, input=input, capture_output=True, text=True,
                                env=environment, timeout=120)
        if check and result.returncode != 0:
            raise AssertionError(f"orders {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
        return result

    def start(self, index, serve_arguments):
        out = open(os.path.join(self.folder, f"serve{index}.out"), "w+")
        err = open(os.path.join(self.folder, f"serve{index}.err"), "w")
        environment = {key: value for key, value in os.environ.items() if not key.startswith("ORDERS_")}
        process = subprocess.Popen([ORDERS, "serve", "--port", "0"] + list(serve_arguments) + self.location, stdout=out,
                                   stderr=err, env=environment)
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            out.seek(0)
            line = out.readline()
            match = re.match(r"listening on (http://[^\s]+)", line)
            if match:
                self.urls.append(match.group(1))
                return
            if process.poll() is not None:
                raise AssertionError(f"orders serve exited {process.returncode}: {open(err.name).read()}")
            time.sleep(0.05)
        raise AssertionError("orders serve printed no port within 60 s")

    def register_client(self, name, redirect_uri, public=False, client_id=None):
        arguments = ["finance", "clients", "create", "--name", name, "--redirect-uri", redirect_uri, "--json"]
        if public:
            arguments.append("--public")
        if client_id:
            arguments += ["--id", client_id]
        created = json.loads(self.orders(arguments).stdout)
        return created["clientID"], created.get("clientSecret")

    def access(self, client):
        """What `orders access status` says: the CLI sees the same grants as the pages."""
        return json.loads(self.orders(["access", "status", "--client", client, "--json"]).stdout)

    def query(self, sql):
        """One value from the store, read below the service (SQLite or psql)."""
        if BACKEND == "postgres":
            result = subprocess.run(["psql", "-At", "-c", sql, self.location[1]], capture_output=True, text=True,
                                    check=True)
            return result.stdout.strip()
        with sqlite3.connect(self.store) as connection:
            return str(connection.execute(sql).fetchone()[0])

    def stop(self):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def new_postgres_database():
    """A new database in the throwaway cluster of Scripts/with-postgres.sh, as a --database URL."""
    if not POSTGRES:
        raise AssertionError("ORDERS_TEST_POSTGRES is not set (run under Scripts/with-postgres.sh)")
    name = "browser_" + uuid.uuid4().hex
    subprocess.run(["psql", "-At", "-c", f"CREATE DATABASE {name} ENCODING 'UTF8' TEMPLATE template0", POSTGRES],
                   capture_output=True, text=True, check=True)
    parsed = urllib.parse.urlparse(POSTGRES)
    return urllib.parse.urlunparse(parsed._replace(path="/" + name))
