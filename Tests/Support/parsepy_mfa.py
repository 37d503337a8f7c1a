"""An unmodified third-party Parse SDK (ParsePy, `parse_rest` on PyPI) enrolling a second factor
and logging in with it, as a Python app written for Parse Server's `mfa` adapter would: codes
from `pyotp`, which computes them as authenticator apps do. ParsePy has no MFA helpers, so it
uses its own raw calls (`User.PUT`, `User.POST`), which is what such an app does.

usage: parsepy_mfa.py <server URL> <application id>
Prints one JSON line with what each step answered.
"""
import json
import sys
import time

import pyotp
import parse_rest.connection as connection

server, app_id = sys.argv[1], sys.argv[2]
connection.API_ROOT = server

from parse_rest.core import ResourceRequestBadRequest  # noqa: E402
from parse_rest.user import User  # noqa: E402

connection.register(app_id, "unused-rest-key")
password = "a long password 2"
user = User.signup("parsepy-mfa", password)
totp = pyotp.TOTP(pyotp.random_base32())
with connection.SessionToken(user.sessionToken):
    enrolled = User.PUT("/" + user.objectId, authData={"mfa": {"secret": totp.secret, "token": totp.now()}})
recovery = enrolled["authDataResponse"]["mfa"]["recovery"]


def log_in(**extra):
    """The login's answer, or the error's body when it is refused."""
    try:
        return User.POST(server + "/login", username="parsepy-mfa", password=password, **extra)
    except ResourceRequestBadRequest as error:
        return json.loads(error.args[0])


result = {"recoveryCount": len(recovery)}
# ParsePy's own login (GET /login, no way to send a code): refused with Parse's answer.
try:
    User.login("parsepy-mfa", password)
    result["sdkLogin"] = "signed in"
except ResourceRequestBadRequest as error:
    result["sdkLogin"] = json.loads(error.args[0])
result["withoutCode"] = log_in()
# The enrolment spent this step's code; the next step's is within the one step of drift allowed.
next_code = totp.at(int(time.time()) + 30)
answer = log_in(authData={"mfa": {"token": next_code}})
result["code"] = {"session": "sessionToken" in answer, "mfa": answer.get("authData", {}).get("mfa")}
result["codeAgain"] = log_in(authData={"mfa": {"token": next_code}})
answer = log_in(authData={"mfa": {"token": recovery[0]}})
result["recovery"] = {"session": "sessionToken" in answer}
result["recoveryAgain"] = log_in(authData={"mfa": {"token": recovery[0]}})
print(json.dumps(result))
