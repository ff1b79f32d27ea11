"""Schemathesis hooks for .ci/api-conformance.sh: a bearer JWT from the service's embedded identity provider.

The admin's access token lives 5 minutes, so it is fetched again (password grant) every 2 minutes and after a 401. A JWT
cannot be revoked through the API, so the stateful phase cannot lock itself out (it may revoke API tokens it creates).
"""

import json
import os
import urllib.parse
import urllib.request

import schemathesis


@schemathesis.auth(refresh_interval=120)
class PasswordGrant:
    def get(self, case, ctx):
        form = urllib.parse.urlencode(
            {
                "grant_type": "password",
                "client_id": "loadplane",
                "client_secret": os.environ["LOADPLANE_CLIENT_SECRET"],
                "username": os.environ["LOADPLANE_USERNAME"],
                "password": os.environ["LOADPLANE_PASSWORD"],
            }
        ).encode()
        url = os.environ["LOADPLANE_URL"] + "/auth/realms/loadplane/protocol/openid-connect/token"
        with urllib.request.urlopen(url, data=form, timeout=30) as response:
            return json.load(response)["access_token"]

    def set(self, case, data, ctx):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schemathesis.hook
def filter_query(ctx, query):
    """A cursor is opaque: only one the service handed out (X-Next-Cursor) means a page, anything else is a 400."""
    return not (query and query.get("cursor"))
