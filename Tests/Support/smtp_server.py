"""A real SMTP server for the tests (aiosmtpd), on 127.0.0.1.

Usage: smtp_server.py PORT MAILDIR [--tls CERT KEY] [--starttls CERT KEY] [--auth USER:PASS]
                      [--login-only] [--fail-first N]
Each accepted message is written to MAILDIR/<n>.eml (write, then rename). With --fail-first N
the first N messages are refused with 451 (a temporary failure). Prints "ready" when listening
and stops on SIGTERM.
"""
import argparse
import asyncio
import os
import signal
import ssl

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Handler:
    def __init__(self, maildir, fail_first):
        self.maildir = maildir
        self.fail_first = fail_first
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        if self.fail_first > 0:
            self.fail_first -= 1
            return "451 4.3.0 try again later"
        self.count += 1
        path = os.path.join(self.maildir, "%06d.eml" % self.count)
        with open(path + ".tmp", "wb") as f:
            f.write(b"X-Envelope-From: " + envelope.mail_from.encode() + b"\r\n")
            f.write(b"X-Envelope-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n")
            f.write(envelope.original_content)
        os.rename(path + ".tmp", path)
        return "250 OK"


def main():
    # A parent's threads may have SIGTERM blocked, and a child inherits the mask.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("maildir")
    parser.add_argument("--tls", nargs=2)
    parser.add_argument("--starttls", nargs=2)
    parser.add_argument("--auth")
    parser.add_argument("--login-only", action="store_true")
    parser.add_argument("--fail-first", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.maildir, exist_ok=True)

    kwargs = {}
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False)

        # aiosmtpd does not count implicit TLS as encryption, so it is only required with STARTTLS.
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(args.starttls))
        if args.login_only:
            kwargs.update(auth_exclude_mechanism=["PLAIN"])
    if args.starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*args.starttls)
        kwargs.update(tls_context=context, require_starttls=True)
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*args.tls)
        kwargs.update(ssl_context=context)
    # A loaded test machine starts many of these at once: allow more than aiosmtpd's 1 s.
    controller = Controller(Handler(args.maildir, args.fail_first), hostname="127.0.0.1", port=args.port, ready_timeout=30, **kwargs)
    controller.start()
    print("ready", flush=True)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    loop.run_until_complete(stop.wait())
    controller.stop()


if __name__ == "__main__":
    main()
