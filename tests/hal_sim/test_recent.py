"""The simulator keeps the recent past of its lines, not all of it (issue 16, "Leaks")."""
import os

from hal_sim.devices.pty_port import WRITTEN_KEPT, PtyPort
from hal_sim.devices.sim_serial import COMMANDS_KEPT, SimSerialDevice
from hal_sim.gpio import HISTORY_KEPT, SimFactory
from hal_sim.recent import Recent


def test_an_outputs_history_keeps_its_latest_writes():
    gpio = SimFactory(clock=iter(range(10 ** 6)).__next__)
    out = gpio.output(5, safe=True)
    for i in range(HISTORY_KEPT * 5):
        out.write(i % 2 == 0)
    history = gpio.history(5)
    assert HISTORY_KEPT <= len(history) <= HISTORY_KEPT * 5 // 4
    assert history[-1][1] is False and gpio._history[5].total == HISTORY_KEPT * 5 + 1
    assert [t for t, _ in history] == sorted(t for t, _ in history)     # the latest, in order
    gpio.close()


def test_a_pty_keeps_its_latest_bytes_and_counts_them_all():
    port = PtyPort()
    try:
        reader = os.open(port.path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            chunk = bytes(range(256)) * 16
            for _ in range(WRITTEN_KEPT * 4 // len(chunk)):
                port.write(chunk)
                while True:                       # drain the slave, as the driver does
                    try:
                        if not os.read(reader, 65536):
                            break
                    except BlockingIOError:
                        break
        finally:
            os.close(reader)
        assert WRITTEN_KEPT <= len(port.written) <= WRITTEN_KEPT * 5 // 4
        assert port.written.total == WRITTEN_KEPT * 4
        assert bytes(port.written[-len(chunk):]) == chunk
    finally:
        port.close()


def test_a_simulated_device_keeps_its_latest_commands():
    class Device(SimSerialDevice):
        device = "test"
    sim = Device()
    assert isinstance(sim.commands, Recent) and sim.commands.limit == COMMANDS_KEPT
    class Message:
        def __init__(self, payload):
            self.payload = payload
    for i in range(COMMANDS_KEPT * 3):
        sim._on_message(Message({"cmd": "show", "n": i}))     # as its link delivers them
    assert sim.commands[-1] == {"cmd": "show", "n": COMMANDS_KEPT * 3 - 1}
    assert len(sim.commands) <= COMMANDS_KEPT * 5 // 4 and sim.commands.total == COMMANDS_KEPT * 3
