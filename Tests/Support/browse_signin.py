"""A command-line stand-in for the system browser in the browser sign-in tests.

Usage: browse_signin.py SUBJECT URL
Opens URL (the server's start URL) following redirects to the stand-in provider's sign-in
form, posts the form as SUBJECT, and follows the redirects back through the server's callback
to the app's loopback redirect. Real HTTP throughout (urllib). Exits non-zero on failure.
"""
import sys
import urllib.request
from urllib.parse import parse_qsl, urlencode, urlparse


def main():
    subject, url = sys.argv[1:3]
    with urllib.request.urlopen(url, timeout=15) as page:
        form_url = page.geturl()
        if "id='subject'" not in page.read().decode():
            raise SystemExit("no sign-in form at " + form_url)
    fields = dict(parse_qsl(urlparse(form_url).query))
    fields.update({"subject": subject, "decision": "allow"})
    request = urllib.request.Request(form_url.split("?")[0], data=urlencode(fields).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=15) as back:
        back.read()


if __name__ == "__main__":
    main()
