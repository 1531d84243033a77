"""A small TCP proxy on loopback: one table's link to the nats-server, that a test cuts.

`cut()` closes every connection through it and refuses new ones (accepted and closed at
once, as a dead switch port would); `restore()` lets them through again."""

import socket
import threading


class Proxy:
    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.open = True
        self.conns = []
        self.lock = threading.Lock()
        self.closed = False
        self.thread = threading.Thread(target=self._accept, name="proxy", daemon=True)
        self.thread.start()

    @property
    def url(self):
        return "nats://127.0.0.1:%d" % self.port

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            if not self.open or self.closed:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True,
                                 name="proxy-pipe").start()

    def _pipe(self, a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def cut(self):
        self.open = False
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def restore(self):
        self.open = True

    def close(self):
        self.closed = True
        self.cut()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)      # wakes the accept
        except OSError:
            pass
        self.sock.close()
        self.thread.join(2)
