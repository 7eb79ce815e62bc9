"""Schemathesis hooks of the API fuzz run (tests/fuzz/run.ts starts the product and sets the environment).

FUZZ_ROLE says who calls: `user` (a registered account) or `admin` (the ADMIN_EMAIL account).
FUZZ_SECRETS names a JSON file with the base URL, both accounts' credentials and tokens, and
pre-minted Google ID tokens and Supabase access tokens signed by the run's test keys.

- Every operation gets the role's bearer token, except: logout, which ends the session it is given,
  gets a fresh session per case (else every later case would run signed out); Supabase sign-in,
  whose bearer is a Supabase token, gets a valid one.
- Sign-in operations get real credentials in some positive cases, so they reach 2xx too (random
  credentials only ever reach 401); so do the admin's token adjustment (the run's user) and
  deletion (a freshly registered account).
- Multipart operations (image uploads) get a real small JPEG in their positive cases (random bytes
  are never an image we take: 415), sent as the request's parts with the generated fields;
  operations on /images/.../{id} name an image the role owns (made by run.ts before the run) in
  their positive cases, so they reach 2xx too; the event stream gets a fresh ticket and ends
  after a second.
- Account care (verify, reset, confirm a new address, change password or address, delete): a
  positive case is made real on a freshly registered account, with its links read from the test mailbox.
- Every answer is recorded (role, operation, status) in FUZZ_STATUS_LOG, so the run can tell that
  each operation answered 2xx at least once for each role.
"""

import hashlib
import hmac
import itertools
import json
import os
import threading
import time
import urllib.parse
import urllib.request

import schemathesis

ROLE = os.environ["FUZZ_ROLE"]
with open(os.environ["FUZZ_SECRETS"], encoding="utf-8") as f:
    SECRETS = json.load(f)
BASE = SECRETS["base"]
ACCOUNT = SECRETS[ROLE]

_lock = threading.Lock()
_counters: dict[str, itertools.count] = {}


def _nth(key: str) -> int:
    with _lock:
        return next(_counters.setdefault(key, itertools.count()))


def _post(path: str, body: bytes, content_type: str) -> dict:
    request = urllib.request.Request(f"{BASE}/api{path}", data=body, headers={"content-type": content_type})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def _post_bearer(path: str) -> dict:
    request = urllib.request.Request(
        f"{BASE}/api{path}", data=b"", headers={"authorization": f"Bearer {ACCOUNT['token']}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def fresh_session() -> str:
    """A new token for the role's account, signed in the way that role signs in."""
    if ROLE == "admin":
        form = urllib.parse.urlencode({"username": ACCOUNT["email"], "password": ACCOUNT["password"]})
        return _post("/admin/login", form.encode(), "application/x-www-form-urlencoded")["access_token"]
    body = json.dumps({"email": ACCOUNT["email"], "password": ACCOUNT["password"]})
    return _post("/auth/login", body.encode(), "application/json")["access_token"]


def _operation(case) -> str:
    return f"{case.method.upper()} {case.operation.path}"


def _cycle(key: str) -> str:
    tokens = SECRETS[key]
    return tokens[_nth(key) % len(tokens)]


# No caching: logout needs a new token for every case, and a 401 must not swap the role's token.
@schemathesis.auth(refresh_interval=None, retry_on=[])
class FlatlayAuth:
    def get(self, case, context):
        operation = _operation(case)
        if operation == "POST /auth/logout":
            return fresh_session()
        if operation == "POST /auth/supabase":
            return _cycle("supabaseTokens")
        return ACCOUNT["token"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


def _positive(case) -> bool:
    meta = getattr(case, "_meta", None)
    return meta is not None and not meta.generation.mode.is_negative


with open(SECRETS["photo"], "rb") as f:
    PHOTO = f.read()
IMAGES = SECRETS["images"][ROLE]

# Operations on one image: which of the role's images a positive case names.
IMAGE_IDS = {
    "GET /images/status/{id}": IMAGES["own"],
    "POST /images/unlock-with-tokens/{id}": IMAGES["own"],
    "GET /images/anonymous/status/{id}": IMAGES["guest"],
    "POST /images/unlock-anonymous-with-tokens/{id}": IMAGES["guest"],
    # Billing: a claimed guest try reads as paid; a locked image of the role's can be paid for.
    "GET /payments/anonymous-enhancement/{id}": IMAGES["guest"],
    "POST /payments/unlock-anonymous-enhancement/{id}": IMAGES["guest"],
    "POST /images/unlock/{id}": IMAGES["locked"],
    "POST /payments/locked-image-ticket/{id}": IMAGES["locked"],
}
# Checkouts need a product, plan or guest try that exists; random ids only ever reach 400 or 404.
REAL_CHECKOUT = {
    "POST /payments/create-checkout-session": lambda: {"price_id": "price_main_pack", "product_type": "payment"},
    # Each role already holds a subscription (run.ts buys one, so cancel can answer 2xx); a second
    # subscription is refused (409), so the positive case here is the call's token-pack form.
    "POST /checkout/session": lambda: {"price_id": "price_main_pack", "product_type": "payment"},
    "POST /payments/create-anonymous-payment": lambda: {
        "enhancement_id": IMAGES["guestOpen"],
        "success_url": "/?payment=success",
        "cancel_url": "/",
    },
}
# A dead-letter topic of a real group and topic (none has letters in this run: count 0).
REAL_CHECKOUT["POST /admin/dead-letters/replay"] = lambda: {"dead_letter_topic": "identity.user.v1.dlq.ledger"}
REAL_CHECKOUT["POST /admin/dead-letters/discard"] = lambda: {"dead_letter_topic": "identity.user.v1.dlq.ledger"}
LOCKED_IMAGE_PAYMENT = "GET /payments/create-locked-image-payment"
WEBHOOK = "POST /webhooks/stripe"


def _stripe_signature(payload: bytes) -> str:
    """The Stripe-Signature header Stripe would send: t=<unix seconds>,v1=<HMAC-SHA256 of "t.payload">."""
    stamp = str(int(time.time()))
    mac = hmac.new(SECRETS["webhookSecret"].encode(), f"{stamp}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={stamp},v1={mac}"
UPLOADS = {"POST /images/generate", "POST /images/anonymous/generate"}


def _multipart(body: dict, photos: dict) -> list:
    """The multipart parts (for the request's `files`) of a positive upload case, its photo fields replaced.

    The photo goes in the request, not in `case.body`: Schemathesis re-checks a body a hook changed
    against the schema and counts any bytes in it as invalid (it cannot validate binary), so a
    positive case given the photo would be judged negative, and its 200 reported as ST201.
    """
    parts = []
    for name, value in {**body, **photos}.items():
        values = value if isinstance(value, list) else [value]
        for item in values:
            if name in photos:
                parts.append((name, ("photo.jpg", item, "image/jpeg")))
            elif item is None:
                continue
            elif isinstance(item, str):
                parts.append((name, (None, item)))
            else:
                parts.append((name, (None, json.dumps(item))))
    return parts
def _fresh_user_email() -> str:
    """A newly registered account, so a real deletion never touches the run's main accounts."""
    email = f"fuzz.delete.{_nth('fresh-user')}.{os.getpid()}@example.com"
    body = json.dumps({"email": email, "password": "fuzz delete password"})
    _post("/auth/register", body.encode(), "application/json")
    return email


def _names_main_user(case) -> bool:
    email = (case.query or {}).get("email")
    return isinstance(email, str) and email.strip().lower() == SECRETS["user"]["email"].lower()


# Account care (ADR 0402): a positive case needs a link from an e-mail, or an account's real
# password. Each is made for a fresh account (never the run's main accounts, whose tokens must
# still work after the run), and its links are read from the test SMTP server (the test mailbox,
# scripts/infra/mailbox-server.mjs).
FRESH_PASSWORD = "fuzz fresh password"
ACCOUNT_CARE = {
    "POST /auth/verify-email",
    "POST /auth/reset-password",
    "POST /auth/confirm-email",
    "POST /auth/change-password",
    "POST /auth/change-email",
    "POST /auth/delete-account",
}


def _fresh_account() -> dict:
    """A newly registered account: its e-mail, password and token."""
    email = f"fuzz.care.{_nth('care-user')}.{os.getpid()}@example.com"
    body = json.dumps({"email": email, "password": FRESH_PASSWORD})
    session = _post("/auth/register", body.encode(), "application/json")
    return {"email": email, "password": FRESH_PASSWORD, "token": session["access_token"]}


def _link_token(address: str, subject: str) -> str:
    """The token of the newest e-mailed link to `address` whose subject contains `subject`."""
    api = os.environ["MAILBOX_URL"].rstrip("/")
    query = urllib.parse.quote(address)
    for _ in range(200):
        with urllib.request.urlopen(f"{api}/messages?to={query}", timeout=10) as response:
            # Oldest first: the newest link is the last one.
            found = [m for m in json.load(response)["messages"] if subject in m["subject"]]
        if found:
            return found[-1]["text"].split("#token=", 1)[1].split()[0]
        time.sleep(0.05)
    raise RuntimeError(f"no e-mail '{subject}' reached {address}")


def _account_care_case(case, operation: str) -> None:
    """A positive case of an account-care operation, made real on a fresh account."""
    fresh = _fresh_account()
    # The role's token was set when the case was made; this case acts for the fresh account.
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {fresh['token']}"}
    if operation == "POST /auth/verify-email":
        case.body = {"token": _link_token(fresh["email"], "Confirm your e-mail address")}
    elif operation == "POST /auth/reset-password":
        _post("/auth/forgot-password", json.dumps({"email": fresh["email"]}).encode(), "application/json")
        case.body = {"token": _link_token(fresh["email"], "Reset your"), "password": "a fuzz reset password"}
    elif operation == "POST /auth/confirm-email":
        moved = f"fuzz.moved.{_nth('care-moved')}.{os.getpid()}@example.com"
        request = urllib.request.Request(
            f"{BASE}/api/auth/change-email",
            data=json.dumps({"new_email": moved, "password": fresh["password"]}).encode(),
            headers={"content-type": "application/json", "authorization": f"Bearer {fresh['token']}"},
        )
        urllib.request.urlopen(request, timeout=30).close()
        case.body = {"token": _link_token(moved, "Confirm your new e-mail address")}
    elif operation == "POST /auth/change-password":
        case.body = {"current_password": fresh["password"], "new_password": "a fuzz new password"}
    elif operation == "POST /auth/change-email":
        case.body = {"new_email": f"fuzz.new.{_nth('care-new')}.{os.getpid()}@example.com", "password": fresh["password"]}
    elif operation == "POST /auth/delete-account":
        case.body = {"password": fresh["password"], "confirmation": "DELETE"}


@schemathesis.hook
def before_call(context, case, kwargs):
    operation = _operation(case)
    # The stateful phase feeds e-mails from the users list into the deletion: never the run's main
    # user, whose token must still work after the run.
    if operation == "DELETE /admin/user/delete" and _names_main_user(case):
        case.query = {**case.query, "email": _fresh_user_email()}
        return
    if operation == LOCKED_IMAGE_PAYMENT:
        # A browser navigation: its documented answer is the 303 itself, not the checkout page after it.
        kwargs["allow_redirects"] = False
    if not _positive(case):
        return
    if operation in ACCOUNT_CARE and "MAILBOX_URL" in os.environ:
        _account_care_case(case, operation)
        return
    if operation == LOCKED_IMAGE_PAYMENT and _nth(operation) % 2 == 0:
        ticket = _post_bearer(f"/payments/locked-image-ticket/{IMAGES['locked']}")["ticket"]
        case.query = {"ticket": ticket, "return_url": "/dashboard"}
        return
    # A price id, plan or promo code is checked against the catalogue, which the document cannot
    # enumerate (it is configuration): a made-up one is a 400, so every positive case names a real one.
    if operation in REAL_CHECKOUT and (operation != "POST /payments/create-anonymous-payment" or _nth(operation) % 2 == 0):
        case.body = REAL_CHECKOUT[operation]()
        return
    if operation == WEBHOOK and isinstance(case.body, dict):
        # A positive case is an event signed as Stripe signs it, with the run's local webhook secret.
        # The body goes as Schemathesis serialises JSON (json.dumps with its default separators).
        payload = json.dumps(case.body).encode()
        case.headers = {**(case.headers or {}), "Stripe-Signature": _stripe_signature(payload)}
        return
    if operation == "GET /images/events":
        # A fresh ticket, and a stream that ends at once (it would stay open for minutes).
        ticket = _post_bearer("/images/events/ticket")["ticket"]
        case.query = {**(case.query or {}), "ticket": ticket, "seconds": 1}
        return
    if operation in UPLOADS and isinstance(case.body, dict):
        kwargs["files"] = _multipart(case.body, {"file": PHOTO})
        return
    if operation == "POST /images/batch" and isinstance(case.body, dict):
        files = case.body.get("files")
        kwargs["files"] = _multipart(
            case.body, {"files": [PHOTO] * max(1, min(3, len(files) if isinstance(files, list) else 1))}
        )
        return
    if operation in IMAGE_IDS and _nth(operation) % 2 == 0:
        case.path_parameters = {**(case.path_parameters or {}), "id": IMAGE_IDS[operation]}
        return
    # One positive case in three signs in for real, or names a user that exists; the others keep
    # what was generated.
    if _nth(operation) % 3 != 0:
        return
    if operation in REAL_SIGN_IN:
        case.body = REAL_SIGN_IN[operation]()
    # The admin operations on a user need one that exists: the run's user (a token adjustment) or a
    # fresh account (a deletion); random addresses only ever reach 404.
    elif ROLE == "admin" and operation == "POST /admin/tokens/adjust":
        case.body = {"user_email": SECRETS["user"]["email"], "tokens": 1, "action": "add"}
    elif ROLE == "admin" and operation == "DELETE /admin/user/delete":
        case.query = {"email": _fresh_user_email()}

REAL_SIGN_IN = {
    "POST /auth/login": lambda: {"email": SECRETS["user"]["email"], "password": SECRETS["user"]["password"]},
    "POST /admin/login": lambda: {"username": SECRETS["admin"]["email"], "password": SECRETS["admin"]["password"]},
    "POST /auth/google": lambda: {"idToken": _cycle("googleIdTokens")},
    # The token (set by FlatlayAuth) is real; a generated id or email names someone else and is
    # refused (401: ADR 0401, no takeover through claims), so a real sign-in sends no claims of its own.
    "POST /auth/supabase": lambda: {},
}


@schemathesis.hook
def after_call(context, case, response):
    with _lock, open(os.environ["FUZZ_STATUS_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"role": ROLE, "operation": _operation(case), "status": response.status_code}) + "\n")
