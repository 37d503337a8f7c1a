"""An unmodified third-party Parse SDK (ParsePy, `parse_rest` on PyPI) uploading a file, saving
it in an object, reading the object back and downloading the file from the URL it holds, as an
existing Python app would against Parse Server.

usage: parsepy_files.py <server URL> <application id>
Prints one JSON line: {"name": <stored name>, "uploadURL": …, "readURL": …, "content": <downloaded text>}.
"""
import json
import sys
from urllib.request import urlopen

import parse_rest.connection as connection

server, app_id = sys.argv[1], sys.argv[2]
# The SDK's one setting for where the server is: its API root, read by the modules below
# when they are imported.
connection.API_ROOT = server

from parse_rest.datatypes import File, Object  # noqa: E402
from parse_rest.user import User  # noqa: E402


class Note(Object):
    pass


connection.register(app_id, "unused-rest-key")
user = User.signup("parsepy-files", "a long password 1")
with connection.SessionToken(user.sessionToken):
    attachment = File("notes.txt", "Working at Parse is great!", "text/plain")
    attachment.save()
    note = Note(title="ParsePy", attachment=attachment)
    note.save()
    fetched = Note.Query.get(objectId=note.objectId)
    read_url = fetched.attachment.url
    content = urlopen(read_url, timeout=10).read().decode("utf-8")
print(json.dumps({"name": attachment.name, "uploadURL": attachment.url, "readURL": read_url, "content": content}))
