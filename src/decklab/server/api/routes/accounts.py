"""Accounts: sign up, log in and out (password or passkey), password change, log out
everywhere, export, delete; and a person's own page: who is logged in, their games,
and claiming a guest's seats. Every state-changing route here passes the CSRF guard
(:mod:`decklab.server.api.session`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from decklab.server.accounts.names import name_key
from decklab.server.accounts.passkeys import Passkeys, RelyingParty
from decklab.server.accounts.sessions import COOKIE, csrf_token
from decklab.server.api.account_models import (
    Ceremony,
    CeremonyOptions,
    Claimed,
    ClaimedSeat,
    ClaimRequest,
    Credentials,
    DeleteRequest,
    Me,
    MyGames,
    PasskeyAdded,
    PasswordChange,
    Revoked,
)
from decklab.server.api.deps import AddressDep, LimitsDep
from decklab.server.api.errors import error_body, responses
from decklab.server.api.origin import DEFAULT_PORTS, SitePolicy, parse_host
from decklab.server.api.session import (
    AccountsDep,
    CallerDep,
    MaybeCallerDep,
    clear_session_cookie,
    set_session_cookie,
)
from decklab.server.errors import ServiceError
from decklab.server.store.models import AccountRow

router = APIRouter(prefix="/api", tags=["accounts"], responses=responses(401, 403, 409))


def relying_party(request: Request) -> RelyingParty:
    """The passkeys' relying party: the public URL's host (its origins), else the host
    and origin this request was made to."""
    policy: SitePolicy = request.app.state.site_policy
    sites = sorted(policy.public_sites, key=lambda s: (s.scheme != "https", s.host))
    if sites:
        return RelyingParty(
            sites[0].host,
            tuple(
                f"{s.scheme}://{s.host}" + (f":{s.port}" if s.explicit_port else "") for s in sites
            ),
        )
    parsed = parse_host(request.headers.get("host", ""))
    if parsed is None:
        raise ServiceError("bad_host", "this server does not answer to that Host")
    host, port = parsed
    scheme = "https" if request.url.scheme == "https" else "http"
    shown = f":{port}" if port is not None and port != DEFAULT_PORTS[scheme] else ""
    return RelyingParty(host, (f"{scheme}://{host}{shown}",))


def _passkeys(accounts: AccountsDep) -> Passkeys:
    return Passkeys(accounts.store)


async def _me(accounts: AccountsDep, account: AccountRow, token: str) -> Me:
    keys = await asyncio.to_thread(accounts.store.passkeys, account.id)
    return Me(
        username=account.username,
        csrf=csrf_token(token),
        has_password=account.password_hash is not None,
        passkeys=len(keys),
    )


@router.post("/account/signup", response_model=Me, status_code=201)
async def signup(
    body: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Me:
    """A new account (username and password), logged in at once."""
    limits.signup(address)
    account, token = await accounts.signup(body.username, body.password)
    set_session_cookie(response, request, token)
    return await _me(accounts, account, token)


@router.post("/account/login", response_model=Me)
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Me:
    """Log in with a password. Attempts are limited per address and per account from one
    address, and an account's wrong passwords slow its next check (never a lock-out)."""
    with limits.password_check(address, name_key(body.username)) as check:
        account, token = await accounts.login(body.username, body.password, check)
    set_session_cookie(response, request, token)
    return await _me(accounts, account, token)


@router.post("/account/logout", status_code=204)
async def logout(request: Request, accounts: AccountsDep, caller: MaybeCallerDep) -> Response:
    """This browser's session ends."""
    if caller is not None:
        await accounts.logout(caller)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.post("/account/logout-everywhere", response_model=Revoked)
async def logout_everywhere(
    request: Request, response: Response, accounts: AccountsDep, caller: CallerDep
) -> Revoked:
    """Every session of the account ends, on every device, this one too."""
    revoked = await accounts.logout_everywhere(caller)
    clear_session_cookie(response, request)
    return Revoked(revoked=revoked)


@router.post("/account/password", status_code=204)
async def change_password(
    body: PasswordChange,
    accounts: AccountsDep,
    caller: CallerDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Response:
    """A new password; every other session is logged out. The current password is
    checked within the same limits as a login's, so a stolen session cannot guess it."""
    with limits.password_check(address, caller.account.username_key) as check:
        await accounts.change_password(caller, body.current, body.new, check)
    return Response(status_code=204)


@router.get("/account/export")
async def export(accounts: AccountsDep, caller: CallerDep) -> JSONResponse:
    """Everything kept about the account, as a JSON file."""
    data = await accounts.export(caller.account)
    return JSONResponse(
        data,
        headers={
            "content-disposition": f'attachment; filename="decklab-{caller.account.username}.json"',
            "cache-control": "no-store",
        },
    )


@router.post("/account/delete", status_code=204)
async def delete(
    body: DeleteRequest,
    request: Request,
    accounts: AccountsDep,
    caller: CallerDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Response:
    """The account and its personal data deleted; its finished games keep the seat as
    "deleted player". The password is checked within a login's limits."""
    with limits.password_check(address, caller.account.username_key) as check:
        await accounts.delete(caller, body.password, body.confirm, check)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.post("/account/passkeys/register/begin", response_model=CeremonyOptions)
async def passkey_register_begin(
    request: Request,
    accounts: AccountsDep,
    caller: CallerDep,
    limits: LimitsDep,
    address: AddressDep,
) -> CeremonyOptions:
    """Options for ``navigator.credentials.create`` (a passkey for this account); limited
    per account and per address, as each keeps a challenge for five minutes."""
    limits.passkey_registration(address, caller.account.id)
    got = await _passkeys(accounts).begin_registration(caller.account, relying_party(request))
    return CeremonyOptions.model_validate(got)


@router.post("/account/passkeys/register/finish", response_model=PasskeyAdded, status_code=201)
async def passkey_register_finish(
    body: Ceremony, request: Request, accounts: AccountsDep, caller: CallerDep
) -> PasskeyAdded:
    """The browser's new credential, checked and kept."""
    credential_id = await _passkeys(accounts).finish_registration(
        caller.account, relying_party(request), body.ceremony, body.credential
    )
    return PasskeyAdded(credential_id=credential_id)


@router.post("/account/passkeys/login/begin", response_model=CeremonyOptions)
async def passkey_login_begin(
    request: Request, accounts: AccountsDep, limits: LimitsDep, address: AddressDep
) -> CeremonyOptions:
    """Options for ``navigator.credentials.get`` (any passkey of this site); limited per
    address on a budget of its own, which no password failure spends."""
    limits.passkey(address)
    return CeremonyOptions.model_validate(
        await _passkeys(accounts).begin_login(relying_party(request))
    )


@router.post("/account/passkeys/login/finish", response_model=Me)
async def passkey_login_finish(
    body: Ceremony,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Me:
    """The browser's signed challenge: logged in as the passkey's account."""
    limits.passkey(address)
    account = await _passkeys(accounts).finish_login(
        relying_party(request), body.ceremony, body.credential
    )
    token = await accounts.open_session(account, "passkey")
    set_session_cookie(response, request, token)
    return await _me(accounts, account, token)


@router.get("/me", response_model=Me)
async def me(request: Request, accounts: AccountsDep, caller: MaybeCallerDep) -> Any:
    """Who is logged in, and the CSRF token their page sends back; 401 for nobody (and a
    cookie that logs in nobody any more is cleared)."""
    if caller is None:
        answer = JSONResponse(error_body(401, "not logged in", "unauthorized"), status_code=401)
        if request.cookies.get(COOKIE):
            clear_session_cookie(answer, request)
        return answer
    return await _me(accounts, caller.account, caller.token)


@router.get("/me/games", response_model=MyGames)
async def my_games(accounts: AccountsDep, caller: CallerDep) -> MyGames:
    """The account's tables, on whatever device their seats were taken: active ones (whose
    turn) first, then finished ones; each seat with its token for this device."""
    return MyGames.model_validate(await accounts.my_games(caller.account))


@router.post("/me/claim", response_model=Claimed)
async def claim(body: ClaimRequest, accounts: AccountsDep, caller: CallerDep) -> Claimed:
    """A guest's seats (tokens this browser kept) carried into the account: each gets a new
    token (returned), and the guest's stops working."""
    got = await accounts.claim(caller.account, [(s.table, s.token) for s in body.seats])
    return Claimed(claimed=[ClaimedSeat.model_validate(c) for c in got])
