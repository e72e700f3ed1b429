"""An access token for the financial-data API, the way a person and a client get one: the owner
signs in, opens the consent sheet, shares every account; the client exchanges the code.

    python3 Scripts/lib/finance_token.py BASE_URL CLIENT_ID CLIENT_SECRET REDIRECT_URI PASSWORD

Prints the access token. For scripts that need a token (Scripts/schemathesis.sh)."""

import base64
import hashlib
import http.cookiejar
import json
import re
import secrets
import sys
import urllib.error
import urllib.parse
import urllib.request

base, client_id, client_secret, redirect_uri, password = sys.argv[1:6]
jar = http.cookiejar.CookieJar()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **keywords):
        return None


opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)


def request(method, path, form=None, headers=None):
    data = urllib.parse.urlencode(form, doseq=True).encode() if form is not None else None
    call = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    try:
        response = opener.open(call)
    except urllib.error.HTTPError as error:
        response = error
    return response.status, response.headers, response.read().decode()


def token(page):
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


_, _, page = request("GET", "/finance/sign-in")
status, _, _ = request("POST", "/finance/sign-in", {"csrf_token": token(page), "password": password})
assert status == 303, f"sign-in answered {status}"
verifier = secrets.token_urlsafe(48)
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
parameters = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "state": "script",
              "code_challenge": challenge, "code_challenge_method": "S256"}
_, _, page = request("GET", "/finance/authorize/accounts?" + urllib.parse.urlencode(parameters))
form = dict(parameters, csrf_token=token(page), decision="share")
for account in re.findall(r'name="(share-[^"]+)"', page):
    form[account] = "on"
status, headers, _ = request("POST", "/finance/authorize/accounts", form)
code = urllib.parse.parse_qs(urllib.parse.urlparse(headers["Location"]).query)["code"][0]
basic = base64.b64encode(f"{client_id}:{client_secret}".encode()).decode()
_, _, body = request("POST", "/finance/token", {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                                "redirect_uri": redirect_uri}, {"Authorization": "Basic " + basic})
print(json.loads(body)["access_token"])
