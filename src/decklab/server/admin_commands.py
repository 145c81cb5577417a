"""``decklab admin``: the moderator's commands, run on the server's machine against its
database (the same ``--database`` URL as ``decklab db``). They write the database and
move its moderation clock on; every server process reads that clock a few times a
second, so a ban holds in all of them within a second (:mod:`decklab.server.moderation`):
the account's sessions and API tokens are revoked by the command itself, its seats at
tables not finished are handed to bots by the servers.

Everything printed goes through :func:`say`: names, reasons and chat lines are typed by
anyone, and a control character among them must not reach the moderator's terminal as
a command to it."""

from __future__ import annotations

import ipaddress
import json
from typing import Annotated

import typer

from decklab.server.accounts.names import name_key
from decklab.server.controls import for_terminal

Database = Annotated[str | None, typer.Option(help="database URL (default: the SQLite file)")]


def say(*parts: object, err: bool = False) -> None:
    """Print one line made of ``parts``, each with its control characters written out
    (:func:`.for_terminal`): the only way this command writes to the terminal."""
    typer.echo("".join(for_terminal(p) for p in parts), err=err)


def _fail(message: str, code: int = 1) -> typer.Exit:
    say("error: ", message, err=True)
    return typer.Exit(code)


def _address(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise _fail(f"{text!r} is not an IP address", 2) from None


def register(app: typer.Typer) -> None:
    from decklab.server.store.moderation import ModerationStore, when

    admin = typer.Typer(help="Moderation: bans, chat lines, reports.", no_args_is_help=True)
    app.add_typer(admin, name="admin")

    def store(database: str | None) -> ModerationStore:
        from decklab.server.store.db import check_url, default_url, make_engine

        try:
            url = check_url(database or default_url())
        except ValueError as exc:
            raise _fail(str(exc), 2) from None
        return ModerationStore(make_engine(url))

    def ban(name: str, banned: bool, database: str | None) -> None:
        if store(database).ban_account(name_key(name), banned) is None:
            raise _fail(f"no account {name!r}")
        say("banned " if banned else "unbanned ", name)

    @admin.command("ban-account")
    def ban_account(name: str, database: Database = None) -> None:
        """Ban an account: its sessions and API tokens are revoked, it cannot log in, its
        seats at tables not finished go to bots (within a second, in every server)."""
        ban(name, True, database)

    @admin.command("unban-account")
    def unban_account(name: str, database: Database = None) -> None:
        """Lift an account's ban (it logs in again; old sessions, API tokens and seat
        tokens stay dead)."""
        ban(name, False, database)

    @admin.command("ban-address")
    def ban_address(address: str, database: Database = None) -> None:
        """Refuse every request from ADDRESS (403)."""
        changed = store(database).ban_address(_address(address), True)
        say(f"banned {address}" if changed else f"{address} was banned already")

    @admin.command("unban-address")
    def unban_address(address: str, database: Database = None) -> None:
        changed = store(database).ban_address(_address(address), False)
        say(f"unbanned {address}" if changed else f"{address} was not banned")

    @admin.command("delete-chat")
    def delete_chat(
        table: str,
        line: Annotated[int | None, typer.Argument(help="one line's id (default: all)")] = None,
        database: Database = None,
    ) -> None:
        """Delete a table's chat lines (or one of them). A server holding the table in
        memory shows them until it lets the table go; reports keep their own copy."""
        gone = store(database).delete_chat(table, line)
        say(gone, " chat line(s) deleted")

    @admin.command("reports")
    def reports(
        open_only: Annotated[bool, typer.Option("--open", help="only unresolved ones")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
        database: Database = None,
    ) -> None:
        """List the reports, oldest first, with the chat each one kept."""
        for r in store(database).reports(open_only):
            item = {
                "id": r.id,
                "table": r.table_id,
                "seat": r.seat + 1,
                "nickname": r.nickname,
                "reporter": r.reporter,
                "reason": r.reason,
                "at": when(r.created_at),
                "resolved": when(r.resolved_at),
                "chat": r.chat,
            }
            if as_json:  # JSON escapes every control character (ensure_ascii: C1 too)
                say(json.dumps(item))
                continue
            state = "resolved" if r.resolved_at else "open"
            say(
                f"#{r.id} [{state}] table ",
                r.table_id,
                f" p{r.seat + 1} ",
                repr(r.nickname),
                " by ",
                r.reporter,
                ": ",
                r.reason,
            )
            for line in r.chat:
                say(f"    {line['id']} p{line['seat'] + 1} ", line["nickname"], ": ", line["text"])

    @admin.command("resolve-report")
    def resolve_report(report_id: int, database: Database = None) -> None:
        """Mark a report as dealt with."""
        if not store(database).resolve(report_id):
            raise _fail(f"no report {report_id}")
        say(f"report {report_id} resolved")
