"""The line discipline, the log-in and the idle end: bytes in, bytes out, an injected clock."""
from controller.console.session import CANCEL, LineEditor, crlf
from tests.console.support import PINS, S, Rig


def keys(editor, data):
    echo, lines = bytearray(), []
    for b in data:
        e, line = editor.key(b)
        echo += e
        if line is not None:
            lines.append(line)
    return bytes(echo), lines


def test_printable_keys_are_echoed_and_cr_or_lf_ends_the_line():
    for eol in (b"\r", b"\n", b"\r\n", b"\n\r"):
        ed = LineEditor()
        echo, lines = keys(ed, b"status" + eol + b"meters" + eol)
        assert lines == ["status", "meters"], eol       # a CR LF pair is one line end
        assert echo == b"status\r\nmeters\r\n"


def test_two_line_ends_of_one_kind_are_two_lines():
    assert keys(LineEditor(), b"a\r\rb\n\n")[1] == ["a", "", "b", ""]


def test_backspace_and_del_erase_one_character_on_screen_and_in_the_line():
    ed = LineEditor()
    echo, lines = keys(ed, b"stx\x08at\x7fus\x7f\x7f\x7fatus\r")
    assert lines == ["status"]
    assert echo.count(b"\b \b") == 5
    assert keys(LineEditor(), b"\x7f\x08ok\r") == (b"ok\r\n", ["ok"])   # nothing to erase


def test_ctrl_u_erases_the_line_and_ctrl_c_cancels_it():
    ed = LineEditor()
    echo, lines = keys(ed, b"clear\x15help\r")
    assert lines == ["help"] and b"\b \b" * 5 in echo
    echo, line = ed.key(0x03)
    assert line is CANCEL and echo == b"^C\r\n"


def test_escape_sequences_control_bytes_and_8_bit_bytes_are_ignored():
    ed = LineEditor()
    assert keys(ed, b"\x1b[A\x1b[1;5C\x1bOBst\x01\x02\x00\xffat\tus\r") == (b"status\r\n",
                                                                              ["status"])


def test_a_too_long_line_rings_the_bell_instead_of_growing():
    ed = LineEditor(max_len=4)
    echo, lines = keys(ed, b"abcdef\r")
    assert lines == ["abcd"] and echo == b"abcd\x07\x07\r\n"


def test_nothing_is_echoed_while_echo_is_off_but_editing_still_works():
    ed = LineEditor()
    ed.echo = False
    echo, lines = keys(ed, b"12x\x7f34\r")
    assert lines == ["1234"] and echo == b"\r\n"


def test_output_lines_end_in_cr_lf():
    assert crlf("a\nb\r\nc") == b"a\r\nb\r\nc"


def test_banner_then_role_then_pin_without_echo_then_a_prompt(tmp_path):
    rig = Rig(tmp_path)
    assert b"tablectl technician console" in rig.banner and rig.banner.endswith(b"role: ")
    assert rig.type("technician\r") == "technician\r\nPIN: "
    out = rig.type(PINS["technician"] + "\r")
    assert PINS["technician"] not in out
    assert "logged in as technician" in out and out.endswith("tablectl[technician]> ")
    rec = rig.ctl.journal.records("console_login")[-1]
    assert rec.data["role"] == "technician" and rec.data["ok"] is True
    assert PINS["technician"] not in repr(list(rig.ctl.journal))       # never a PIN


def test_a_wrong_pin_is_refused_counted_and_journaled(tmp_path):
    rig = Rig(tmp_path)
    rig.type("floorperson\r")
    out = rig.type("0000\r")
    assert "login incorrect" in out and out.endswith("role: ")
    assert rig.guard.failures == 1
    rec = rig.ctl.journal.records("console_login")[-1]
    assert rec.data == {"role": "floorperson", "ok": False, "failures": 1}
    rig.type("nobody\r")                                # an unknown role asks for a PIN too
    assert "login incorrect" in rig.type(PINS["floorperson"] + "\r")
    assert rig.ctl.journal.records("console_login")[-1].data["role"] == "(unknown)"
    rig.login("floorperson")
    assert rig.guard.failures == 0                      # a success resets the count


def test_several_failures_lock_the_console_for_a_while(tmp_path):
    rig = Rig(tmp_path, max_failures=3, lock_s=120)
    for _ in range(2):
        rig.type("technician\r")
        assert "locked" not in rig.type("1111\r")
    rig.type("technician\r")
    out = rig.type("1111\r")
    assert "locked for 120 seconds" in out
    assert rig.ctl.journal.records("console_locked")[-1].data == {"failures": 3, "seconds": 120}
    rig.clock.now += 60 * S
    out = rig.type("technician\r")                      # not even asked for a PIN
    assert "try again in 60 seconds" in out and out.endswith("role: ")
    rig.clock.now += 59 * S
    assert "locked" in rig.type("technician\r")
    rig.clock.now += 1 * S                              # the lock has run out
    assert rig.type("technician\r").endswith("PIN: ")
    assert "logged in as technician" in rig.type(PINS["technician"] + "\r")


def test_while_locked_no_pin_is_asked_for_so_the_right_one_does_not_help(tmp_path):
    rig = Rig(tmp_path, max_failures=1, lock_s=30)
    rig.type("dealer\r")
    assert "locked for 30 seconds" in rig.type("9999\r")
    for _ in range(3):
        assert "locked" in rig.type("dealer\r") and "locked" in rig.type(PINS["dealer"] + "\r")
    assert rig.session.role is None and rig.session.pending_role is None


def test_ctrl_c_at_the_pin_cancels_the_log_in_without_counting_a_failure(tmp_path):
    rig = Rig(tmp_path)
    rig.type("dealer\r12")
    assert rig.type(b"\x03").endswith("role: ")
    assert rig.guard.failures == 0


def test_an_idle_session_ends_on_the_injected_clock(tmp_path):
    rig = Rig(tmp_path, idle_s=60)
    rig.login("technician")
    rig.clock.now += 59 * S
    assert rig.session.tick() == b""
    rig.run("status")                                   # activity restarts the timer
    rig.clock.now += 59 * S
    assert rig.session.tick() == b""
    rig.clock.now += 1 * S
    out = rig.session.tick().decode()
    assert "session ended: idle for 60 seconds" in out and out.endswith("role: ")
    assert rig.session.role is None
    assert rig.ctl.journal.records("console_logout")[-1].data["reason"] == "idle"
    assert "refused" not in rig.run("status") and rig.session.role is None   # a role, not a command


def test_an_abandoned_log_in_goes_back_to_the_role_prompt(tmp_path):
    rig = Rig(tmp_path, idle_s=30)
    rig.type("dealer\r")
    rig.clock.now += 30 * S
    assert rig.session.tick().decode().endswith("role: ")
    assert rig.type("dealer\r").endswith("PIN: ")


def test_logout_ends_the_session_and_journals_it(tmp_path):
    rig = Rig(tmp_path)
    rig.login("dealer")
    out = rig.run("logout")
    assert "dealer logged out" in out and out.endswith("role: ")
    assert rig.ctl.journal.records("console_logout")[-1].data["reason"] == "logout"
    assert rig.session.role is None
