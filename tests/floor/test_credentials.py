"""Each credential reads and writes only its own (issue 31), against a real nats-server with
the configuration controller/lab/natsserver.py writes: per-user reply subjects, the floor's
least privilege, the streams that refuse delete and purge, passwords kept as bcrypt hashes.

The attack of the issue: with one table's password, a plain nats-py client subscribed to
`_INBOX.>` received the floor's ordered-consumer deliveries, every other table's journal
rows. Now each user's replies are on `_INBOX_<user>.>` and only there may it subscribe."""

import asyncio
import json
import os
import stat

import pytest

from controller.wire import subjects as S
from tests.floor.conftest import FLOOR_PW, ServiceThread, run, tablectl
from tests.floor.linkpub import LinkTable


async def _sniff(url, user, password, subjects, stop, received, errors):
    """A plain client with the default inbox prefix, as an attacker runs it, until `stop`."""
    import nats

    async def on_error(e):
        errors.append(str(e))
    nc = await nats.connect(url, user=user, password=password, error_cb=on_error,
                            max_reconnect_attempts=0)
    try:
        for subject in subjects:
            async def got(msg, subject=subject):
                received.append((subject, msg.subject, msg.data))
            await nc.subscribe(subject, cb=got)
        await stop.wait()
    finally:
        await nc.close()


def test_a_table_credentials_inbox_sniff_receives_no_row_of_another_table(floor):
    """T1's password sniffs every reply subject while the floor service consumes T2's and
    T3's rows: refused (a permissions violation), and not one row of another table comes."""
    service = ServiceThread(floor.url)
    received, errors = [], []

    async def attack_while_others_play():
        stop = asyncio.Event()
        sniff = asyncio.ensure_future(_sniff(
            floor.url, "T1", floor.passwords["T1"],
            ["_INBOX.>", "_INBOX_floor.>", "_INBOX_T2.>", ">"], stop, received, errors))
        await asyncio.sleep(0.5)
        for t in ("T2", "T3"):
            table = await LinkTable(floor.url, "L1", t, floor.passwords[t]).start()
            try:
                for n in range(1, 41):
                    await table.journal_row("note", {"n": n, "secret": "%s row %d" % (t, n)},
                                            force=True)
            finally:
                await table.close()
        views = service.service.views
        for _ in range(400):            # the sniff listens while the floor consumes them
            if all(t in views and views[t].head[0] == 40 for t in ("T2", "T3")):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the floor did not fold T2's and T3's rows")
        stop.set()
        await sniff
    try:
        run(attack_while_others_play())
    finally:
        service.stop()
    leaked = [r for r in received if b"row " in r[2]]
    assert leaked == [], "T1's credential read %d rows of other tables" % len(leaked)
    assert sum("ermissions" in e for e in errors) >= 4, errors


def test_the_floor_user_cannot_act_as_a_table_nor_erase_the_record(floor):
    import nats

    async def go():
        errors = []

        async def on_error(e):
            errors.append(str(e))
        nc = await nats.connect(floor.url, user="floor", password=FLOOR_PW,
                                inbox_prefix=S.inbox_prefix("floor"), error_cb=on_error,
                                max_reconnect_attempts=0)
        try:
            js = nc.jetstream(timeout=1)
            info = await js.stream_info(S.STREAM)
            assert info.config.deny_delete and info.config.deny_purge
            for attempt in (lambda: js.publish(S.journal_subject("T1"), b"{}"),
                            lambda: js.publish(S.link_subject("L1", "T1"), b"{}"),
                            lambda: js.delete_stream(S.STREAM),
                            lambda: js.purge_stream(S.STREAM),
                            lambda: js.delete_msg(S.STREAM, 1)):
                with pytest.raises(Exception):
                    await attempt()
            await asyncio.sleep(0.2)
            assert (await js.stream_info(S.STREAM)).config.name == S.STREAM
        finally:
            await nc.close()
        return errors
    errors = run(go())
    assert sum("ermissions" in e for e in errors) >= 2, errors


def test_the_servers_configuration_holds_hashes_only_and_is_private(floor):
    with open(floor.server.conf_path) as f:
        text = f.read()
    assert FLOOR_PW not in text and not any(pw in text for pw in floor.passwords.values())
    assert text.count('"$2a$04$') == 1 + len(floor.passwords)
    assert stat.S_IMODE(os.stat(floor.server.conf_path).st_mode) == 0o600


def test_a_tables_signing_key_is_made_once_private_and_its_public_line_printed(tmp_path):
    """`tablectl signing-key`: 0600 from its creation, never over a key that is there, the
    line the floor's table-keys file takes; the floor reads that file."""
    import io
    from controller.cli import build_parser
    from controller.wire import signing

    def cli(*argv):
        args = build_parser().parse_args(list(argv))
        out = io.StringIO()
        return args.func(args, out), out.getvalue()
    path = str(tmp_path / "t1.signing.pem")
    rc, line = cli("signing-key", path, "--table", "T1")
    assert rc == 0 and line.startswith("T1 ed25519:")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert cli("signing-key", path, "--table", "T1", "--show") == (0, line)
    p = tablectl("signing-key", path, "--table", "T1")
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2 and "is there already" in err and err.count("\n") == 1
    keys = tmp_path / "table-keys"
    keys.write_text("# the link's tables\n" + line)
    got = signing.load_public_keys(str(keys))
    assert signing.public_text(got["T1"]) == line.split()[1]
    keys.write_text("T1 ed25519:not-a-key\n")
    with pytest.raises(Exception, match="line 1"):
        signing.load_public_keys(str(keys))
