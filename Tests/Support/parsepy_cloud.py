"""An unmodified third-party Parse SDK (ParsePy, `parse_rest` on PyPI) calling a cloud function
and reading Parse Config, as an existing Python app would against Parse Server.

usage: parsepy_cloud.py <server URL> <application id>
Prints one JSON line: {"function": <the function's answer>, "config": <the config's params>}.
"""
import json
import sys

import parse_rest.connection as connection

server, app_id = sys.argv[1], sys.argv[2]
# The SDK's one setting for where the server is: its API root, read by the modules below
# when they are imported.
connection.API_ROOT = server

from parse_rest.config import Config  # noqa: E402
from parse_rest.datatypes import Function  # noqa: E402
from parse_rest.user import User  # noqa: E402

connection.register(app_id, "unused-rest-key")
user = User.signup("parsepy", "a long password 1")
with connection.SessionToken(user.sessionToken):
    answer = Function("hello")(name="ParsePy")
print(json.dumps({"function": answer, "config": Config.get()}))
