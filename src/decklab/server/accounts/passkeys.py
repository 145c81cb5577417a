"""Passkeys (WebAuthn), a second way in: the two ceremonies, registering one and
logging in with one, each in two requests (options, then the browser's answer).

The ``webauthn`` library checks every answer (challenge, origin, relying party, the
signature and its counter). A challenge is kept in the database between the two
requests (so another server process may answer the second), used once, for at most
five minutes. Logging in asks for a discoverable credential (no username typed): the
passkey carries the account's random user handle, never its name or row id.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import secrets
from dataclasses import dataclass
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from decklab.server.errors import ServiceError
from decklab.server.store.accounts import AccountStore
from decklab.server.store.models import AccountRow, ChallengeRow, PasskeyRow

CHALLENGE_AGE = _dt.timedelta(minutes=5)
RP_NAME = "decklab"
MAX_PASSKEYS = 20


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the site's host name and the origins its pages have."""

    rp_id: str
    origins: tuple[str, ...]


def _refused(why: str) -> ServiceError:
    return ServiceError("bad_passkey", f"the passkey was not accepted: {why}", 400)


def _credential_id(credential: dict[str, Any]) -> str:
    raw = credential.get("id")
    if not isinstance(raw, str) or not 1 <= len(raw) <= 400:
        raise _refused("no credential id")
    return raw


class Passkeys:
    def __init__(self, store: AccountStore) -> None:
        self.store = store

    async def _challenge(self, purpose: str, account_id: int | None) -> tuple[str, bytes]:
        challenge_id, challenge = secrets.token_urlsafe(16), secrets.token_bytes(32)
        row = ChallengeRow(
            id=challenge_id, challenge=challenge, purpose=purpose, account_id=account_id
        )
        await asyncio.to_thread(self.store.put_challenge, row, CHALLENGE_AGE)
        return challenge_id, challenge

    async def _take(self, challenge_id: str, purpose: str, account_id: int | None) -> bytes:
        row = await asyncio.to_thread(self.store.take_challenge, challenge_id, CHALLENGE_AGE)
        if row is None or row.purpose != purpose or row.account_id != account_id:
            raise _refused("the ceremony expired or is unknown: start again")
        return row.challenge

    # ------------------------------------------------------------ registering
    async def begin_registration(self, account: AccountRow, rp: RelyingParty) -> dict[str, Any]:
        existing = await asyncio.to_thread(self.store.passkeys, account.id)
        if len(existing) >= MAX_PASSKEYS:
            raise ServiceError("bad_request", f"an account has at most {MAX_PASSKEYS} passkeys")
        challenge_id, challenge = await self._challenge("register", account.id)
        options = generate_registration_options(
            rp_id=rp.rp_id,
            rp_name=RP_NAME,
            user_name=account.username,
            user_id=account.webauthn_user_id,
            challenge=challenge,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id))
                for p in existing
            ],
        )
        return {"ceremony": challenge_id, "options": json.loads(options_to_json(options))}

    async def finish_registration(
        self, account: AccountRow, rp: RelyingParty, ceremony: str, credential: dict[str, Any]
    ) -> str:
        challenge = await self._take(ceremony, "register", account.id)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.rp_id,
                expected_origin=list(rp.origins),
            )
        except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as exc:
            raise _refused(str(exc)[:200]) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if await asyncio.to_thread(self.store.passkey, credential_id) is not None:
            raise _refused("this passkey is already registered")
        await asyncio.to_thread(
            self.store.add_passkey,
            PasskeyRow(
                credential_id=credential_id,
                account_id=account.id,
                public_key=verified.credential_public_key,
                sign_count=verified.sign_count,
            ),
        )
        return credential_id

    # ------------------------------------------------------------ logging in
    async def begin_login(self, rp: RelyingParty) -> dict[str, Any]:
        challenge_id, challenge = await self._challenge("login", None)
        options = generate_authentication_options(
            rp_id=rp.rp_id,
            challenge=challenge,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return {"ceremony": challenge_id, "options": json.loads(options_to_json(options))}

    async def finish_login(
        self, rp: RelyingParty, ceremony: str, credential: dict[str, Any]
    ) -> AccountRow:
        challenge = await self._take(ceremony, "login", None)
        passkey = await asyncio.to_thread(self.store.passkey, _credential_id(credential))
        if passkey is None:
            raise _refused("this passkey belongs to no account here")
        account = await asyncio.to_thread(self.store.get, passkey.account_id)
        if account is None:
            raise _refused("this passkey belongs to no account here")
        handle = (credential.get("response") or {}).get("userHandle")
        if handle and base64url_to_bytes(str(handle)) != account.webauthn_user_id:
            raise _refused("the passkey's user is not its account's")
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.rp_id,
                expected_origin=list(rp.origins),
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count,
            )
        except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError) as exc:
            raise _refused(str(exc)[:200]) from None
        await asyncio.to_thread(
            self.store.passkey_used, passkey.credential_id, verified.new_sign_count
        )
        return account
