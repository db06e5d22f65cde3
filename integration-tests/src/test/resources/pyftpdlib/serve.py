"""A plain FTP server (pyftpdlib) for Ferry's tests: stream mode only (no MODE E, no FEAT PARALLEL),
anonymous login with write permission on one directory, loopback, a free port.

Usage: serve.py ROOT. Prints "pyftpdlib listening on PORT" once it accepts connections; runs until
killed.
"""
import logging
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main():
    root = sys.argv[1]
    authorizer = DummyAuthorizer()
    # e l r a d f m w M T: list, read, append, delete, rename, mkdir, store, chmod, mtime
    authorizer.add_anonymous(root, perm="elradfmwMT")

    class Handler(FTPHandler):
        pass

    Handler.authorizer = authorizer
    Handler.banner = "pyftpdlib stream-mode test server"
    logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)  # commands and replies
    server = FTPServer(("127.0.0.1", 0), Handler)
    print("pyftpdlib listening on %d" % server.socket.getsockname()[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
