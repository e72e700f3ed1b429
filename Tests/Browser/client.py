"""The third-party side of the flows: a small OAuth client with PKCE, as an app's backend would
write it, and the web server its redirect URI points at (which also plays "another origin")."""

import base64
import hashlib
import http.server as httpserver
import json
import secrets
import ssl
import threading
import urllib.error
import urllib.parse
import urllib.request


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **keywords):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def trust(certificate):
    """Trusts `certificate` (a PEM file) besides the system's roots in every later request: a
    test's own TLS proxy."""
    global _opener
    context = ssl.create_default_context()
    context.load_verify_locations(certificate)
    _opener = urllib.request.build_opener(_NoRedirect, urllib.request.HTTPSHandler(context=context))


def http(method, url, form=None, headers=None):
    """One request, redirects not followed; the answer whatever its status."""
    body = urllib.parse.urlencode(form, doseq=True).encode() if form is not None else None
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    if body is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        response = _opener.open(request, timeout=30)
    except urllib.error.HTTPError as error:
        response = error
    return Answer(response.status, {key.lower(): value for key, value in response.headers.items()},
                  response.read().decode())


class OAuthClient:
    """A registered client: builds authorization requests with a fresh PKCE verifier and state,
    exchanges codes, refreshes, and reads the data API."""

    def __init__(self, server, client_id, secret, redirect_uri):
        self.server = server
        self.client_id = client_id
        self.secret = secret
        self.redirect_uri = redirect_uri
        self.verifier = None
        self.state = None

    def authorization_url(self, path="/finance/authorize", **overrides):
        self.verifier = secrets.token_urlsafe(48)
        self.state = secrets.token_urlsafe(12)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(self.verifier.encode()).digest()).rstrip(b"=").decode()
        parameters = {"response_type": "code", "client_id": self.client_id, "redirect_uri": self.redirect_uri,
                      "state": self.state, "code_challenge": challenge, "code_challenge_method": "S256"}
        parameters.update(overrides)
        return self.server + path + "?" + urllib.parse.urlencode(parameters)

    def credentials(self):
        if self.secret is None:
            return {}, {"client_id": self.client_id}
        basic = base64.b64encode(f"{urllib.parse.quote(self.client_id)}:{urllib.parse.quote(self.secret)}".encode()).decode()
        return {"Authorization": "Basic " + basic}, {}

    def exchange(self, code, verifier="own", path="/finance/token", **extra):
        headers, form = self.credentials()
        form.update({"grant_type": "authorization_code", "code": code, "redirect_uri": self.redirect_uri})
        if verifier == "own":
            form["code_verifier"] = self.verifier
        elif verifier is not None:
            form["code_verifier"] = verifier
        if path != "/finance/token":
            del form["grant_type"]
        form.update(extra)
        return http("POST", self.server + path, form, headers)

    def refresh(self, refresh_token):
        headers, form = self.credentials()
        form.update({"grant_type": "refresh_token", "refresh_token": refresh_token})
        return http("POST", self.server + "/finance/token", form, headers)

    def get(self, path, token):
        return http("GET", self.server + path, headers={"Authorization": "Bearer " + token})


class CallbackServer:
    """The client's web server on another port (another origin): records every callback, shows
    a page, and serves the pages an attacker would (a frame around the consent sheet, a form that
    posts to it)."""

    def __init__(self):
        self.received = []
        self.pages = {}
        owner = self

        class Handler(httpserver.BaseHTTPRequestHandler):
            def do_GET(self):
                owner.received.append(self.path)
                body = owner.pages.get(urllib.parse.urlparse(self.path).path, "<!DOCTYPE html><title>Callback</title>"
                                       "<h1>Back at the app</h1>")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *arguments):
                pass

        self.server = httpserver.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
